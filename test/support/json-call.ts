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

/** A request injected into `app`, its body JSON or given as text of `type`; status, text and JSON. */
export async function injectCall(app: App, method: string, url: string, body?: unknown, type = 'application/json'): Promise<{ status: number; text: string; body: any }> {
  const res = await app.fastify.inject({
    method: method as 'POST',
    url,
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': type } }),
  });
  return { status: res.statusCode, text: res.body, body: JSON.parse(res.body) };
}

/** `GET /_tasks/<id>` on `app`, polled until the task has completed: that answer. */
export async function completedTask(app: App, id: string, tries = 500): Promise<any> {
  for (let i = 0; i < tries; i++) {
    const r = await injectCall(app, 'GET', `/_tasks/${id}`);
    if (r.body.completed === true) return r.body;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`task ${id} did not finish`);
}
