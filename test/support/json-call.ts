// JSON requests for tests: through a live server's socket, or injected into an in-process app.
import type { App } from '../../src/app';

export type Json = Record<string, any>;

export interface JsonAnswer {
  status: number;
  json: Json;
}

function payloadOf(body: unknown): string | undefined {
  return body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
}

/** A request to `baseUrl` over a real socket; the answer's JSON. */
export async function fetchJson(baseUrl: string, method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  const payload = payloadOf(body);
  const res = await fetch(baseUrl + path, { method, ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: payload }) });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A request injected into `app`; the answer's JSON. */
export async function injectJson(app: App, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<JsonAnswer> {
  const payload = payloadOf(body);
  const res = await app.fastify.inject({ method, url, payload, headers: payload === undefined ? {} : { 'content-type': 'application/json' } });
  return { status: res.statusCode, json: JSON.parse(res.body) as Json };
}
