// Delivery over HTTP(S), as the notifications plugin's DestinationHttpClient does it: one request,
// redirects not followed, 5 s to connect and 50 s between reads, success only for 200-207 (204
// and 205 included). The answer's body is the delivery's `status_text` (`{}` when empty); a
// failure reads `Failed to send webhook message <why>`.
import http from 'node:http';
import https from 'node:https';
import { deliveryStatus, type DeliveryStatus } from './notification-event';

export const CONNECT_TIMEOUT_MS = 5_000;
export const SOCKET_TIMEOUT_MS = 50_000;
const SUCCESS = new Set([200, 201, 202, 203, 204, 205, 206, 207]);

export interface HttpDelivery {
  readonly url: string;
  readonly method: 'POST' | 'PUT' | 'PATCH';
  /** Request headers as configured; a body content type is added when none is. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The most characters of the answer kept as `status_text`. */
  readonly maxResponseChars: number;
}

/** Why a request failed, in words close to the JVM's (what OpenSearch would print). */
function reasonOf(err: NodeJS.ErrnoException, host: string): string {
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'Host could not be resolved to a valid Ip address';
  if (err.code === 'ECONNREFUSED') return `Connect to ${host} failed: Connection refused`;
  return err.message;
}

function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

export function deliverHttp(d: HttpDelivery): Promise<DeliveryStatus> {
  const failed = (why: string): DeliveryStatus => deliveryStatus(500, `Failed to send webhook message ${why}`);
  let url: URL;
  try {
    url = new URL(d.url);
  } catch {
    return Promise.resolve(failed(`no protocol: ${d.url}`));
  }
  const payload = Buffer.from(d.body, 'utf8');
  // Apache's client adds the entity's own type (a string entity: text/plain, UTF-8) only when
  // the configured headers name none.
  const headers: Record<string, string> = { ...d.headers };
  if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'text/plain; charset=UTF-8';
  headers['Content-Length'] = String(payload.length);
  const host = url.port === '' ? url.hostname : `${url.hostname}:${url.port}`;
  return new Promise<DeliveryStatus>((resolve) => {
    let settled = false;
    const finish = (status: DeliveryStatus): void => {
      if (settled) return;
      settled = true;
      resolve(status);
    };
    let req: http.ClientRequest;
    try {
      const lib = url.protocol === 'https:' ? https : http;
      req = lib.request(url, { method: d.method, headers, agent: false });
    } catch (err) {
      finish(failed((err as Error).message));
      return;
    }
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('Connect timed out'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    req.setTimeout(SOCKET_TIMEOUT_MS, () => req.destroy(new Error('Read timed out')));
    req.on('error', (err: NodeJS.ErrnoException) => finish(failed(reasonOf(err, host))));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let chars = 0;
      res.on('data', (chunk: Buffer) => {
        if (chars >= d.maxResponseChars) return;
        chunks.push(chunk);
        chars += chunk.length;
      });
      res.on('error', (err: NodeJS.ErrnoException) => finish(failed(reasonOf(err, host))));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, d.maxResponseChars);
        const status = res.statusCode ?? 0;
        if (!SUCCESS.has(status)) finish(failed(`Failed: ${text}`));
        else finish(deliveryStatus(200, text === '' ? '{}' : text));
      });
    });
    req.end(payload);
  });
}
