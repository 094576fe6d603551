// A loopback HTTP(S) server for tests that records every request (method, path, headers, body)
// and answers with what `respond` says (200 `ok` by default). With `tls`, it speaks HTTPS.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

export interface Answer {
  readonly status: number;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export interface HttpReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpReceiver(
  respond: (r: ReceivedRequest) => Answer = () => ({ status: 200, body: 'ok' }),
  tls?: { readonly key: string; readonly cert: string },
): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(r);
      const a = respond(r);
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  };
  const server = tls === undefined ? http.createServer(handler) : https.createServer({ key: tls.key, cert: tls.cert }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns (or resolves to) a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000, what = 'the expected state'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
