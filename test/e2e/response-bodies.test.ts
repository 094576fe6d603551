// Response bodies are handed back to the engine once written (`Engine.recycle`), so each one's
// memory is freed at the next settle instead of by V8's GC. A body must never be freed before
// the socket has taken all of it: not when the client reads slowly (the body waits in node's
// queue), nor when many connections are answered at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;
const DOCS = 300;
const text = (i: number) => `${i} `.repeat(8000).slice(0, 20_000);

async function call(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${server.url}${path}`, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
  return { status: r.status, text: await r.text() };
}

/** One request over a raw socket that reads nothing for `pauseMs`, then all of the answer. */
function slowRead(path: string, body: string, pauseMs: number): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const s = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('error', reject);
    s.pause();
    s.write(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    setTimeout(() => s.resume(), pauseMs);
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => {
      const all = Buffer.concat(chunks);
      const at = all.indexOf('\r\n\r\n');
      resolve({ head: all.subarray(0, at).toString(), body: all.subarray(at + 4) });
    });
  });
}

beforeAll(async () => {
  server = await startQuarry();
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) lines.push(JSON.stringify({ index: { _index: 'big', _id: String(i) } }), JSON.stringify({ n: i, text: text(i) }));
  const r = await call('POST', '/_bulk?refresh=true', lines.join('\n') + '\n');
  expect(r.status).toBe(200);
  expect(JSON.parse(r.text).errors).toBe(false);
});

afterAll(async () => {
  await cleanupServers();
});

function checkHits(json: any, size: number): void {
  expect(json.hits.hits).toHaveLength(size);
  for (const h of json.hits.hits) expect(h._source.text).toBe(text(h._source.n));
}

describe('large response bodies', () => {
  it('reach a client that reads nothing for a while whole, while others are answered meanwhile', async () => {
    const query = JSON.stringify({ size: DOCS, sort: ['n'] });
    const slow = slowRead('/big/_search', query, 400); // ~6 MB: more than the socket takes at once
    // Other answers settle (and free what was recycled) while the slow one waits in node's queue.
    for (let i = 0; i < 20; i++) checkHits(JSON.parse((await call('POST', '/big/_search', '{"size":5}')).text), 5);
    const { head, body } = await slow;
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    expect(length).toBeGreaterThan(5_000_000);
    expect(body.length).toBe(length);
    checkHits(JSON.parse(body.toString()), DOCS);
  });

  it('are whole when many connections are answered at once', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; i < 25; i++) {
          const size = 3 + ((c + i) % 5);
          const r = await call('POST', '/big/_search', JSON.stringify({ size, from: c }));
          expect(r.status).toBe(200);
          checkHits(JSON.parse(r.text), size);
        }
      }),
    );
    expect(rounds).toHaveLength(8);
  });
});
