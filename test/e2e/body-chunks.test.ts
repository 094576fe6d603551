// Request bodies reach the engine as the chunks they arrived in (joined on the engine's pool, not
// on the event loop): bodies written in many pieces over a real socket, GET bodies split across
// writes, and the http.max_content_length limit on both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;

interface Answer {
  status: number;
  body: string;
}

/** Sends `pieces` as separate writes (chunked transfer unless a length is given). */
function send(method: string, path: string, pieces: Buffer[], contentType: string, length?: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': contentType };
    if (length !== undefined) headers['content-length'] = String(length);
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    let i = 0;
    const next = (): void => {
      if (i === pieces.length) {
        req.end();
        return;
      }
      req.write(pieces[i++]);
      setImmediate(next);
    };
    next();
  });
}

function split(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

beforeAll(async () => {
  server = await startQuarry({ settings: { 'http.max_content_length': '600kb' } });
});

afterAll(async () => {
  await cleanupServers();
});

describe('request bodies in chunks', () => {
  it('indexes a bulk body written in many pieces', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      lines.push(JSON.stringify({ index: { _index: 'chunks', _id: String(i) } }));
      lines.push(JSON.stringify({ n: i, text: `document ${i} ${'x'.repeat(100)}` }));
    }
    const body = Buffer.from(lines.join('\n') + '\n');
    expect(body.length).toBeGreaterThan(200 * 1024);
    const res = await send('POST', '/_bulk?refresh=true', split(body, 7000), 'application/x-ndjson');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).errors).toBe(false);
    const count = await send('GET', '/chunks/_count', [], 'application/json');
    expect(JSON.parse(count.body).count).toBe(2000);
  });

  it('reads a GET search body split across writes', async () => {
    const body = Buffer.from(JSON.stringify({ query: { term: { n: 1234 } } }));
    const res = await send('GET', '/chunks/_search', split(body, 5), 'application/json', body.length);
    expect(res.status).toBe(200);
    const hits = JSON.parse(res.body).hits;
    expect(hits.total.value).toBe(1);
    expect(hits.hits[0]._id).toBe('1234');
  });

  it('refuses a POST body past http.max_content_length, declared or streamed', async () => {
    const big = Buffer.alloc(700 * 1024, 'a');
    const declared = await send('POST', '/chunks/_search', [big], 'application/json', big.length);
    expect(declared.status).toBe(413);
    const streamed = await send('POST', '/chunks/_search', split(big, 64 * 1024), 'application/json');
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.type).toBe('content_too_long_exception');
  });

  it('refuses a GET body past http.max_content_length', async () => {
    const big = Buffer.alloc(700 * 1024, 'a');
    const res = await send('GET', '/chunks/_search', split(big, 64 * 1024), 'application/json', big.length);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.type).toBe('content_too_long_exception');
  });
});
