// A refused body (src/http/linger.ts), over a real socket: the client gets the 413 whole,
// without a reset, however much of its body was still on the way, and its connection then
// serves the next request; a client that never stops sending is cut off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;

beforeAll(async () => {
  server = await startQuarry({ settings: { 'http.max_content_length': '600kb' } });
});

afterAll(async () => {
  await cleanupServers();
});

interface Outcome {
  /** The status line of each complete response, in order. */
  statuses: string[];
  /** The bodies of those responses. */
  bodies: string[];
  /** The socket error the client saw, if any (EPIPE, ECONNRESET). */
  error: string | undefined;
  ms: number;
}

/**
 * Sends a request head and then `body` (or, with `endless`, 1 MB writes for as long as the
 * socket takes them; with `trickle`, 1 KB every 50 ms). After the first complete response, asks `GET /` on the same connection
 * and ends it after that answer; resolves when the socket closes.
 */
function exchange(head: string, body: Buffer | 'endless' | 'trickle'): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const out: Outcome = { statuses: [], bodies: [], error: undefined, ms: 0 };
    let pending = Buffer.alloc(0);
    const socket: Socket = connect(server.port, '127.0.0.1', () => {
      socket.write(head);
      if (body === 'trickle') {
        const kb = Buffer.alloc(1024, 'a');
        const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(kb)), 50);
        return;
      }
      if (body !== 'endless') {
        socket.write(body);
        return;
      }
      const mb = Buffer.alloc(1024 * 1024, 'a');
      const pump = (): void => {
        while (!socket.destroyed && socket.write(mb));
      };
      socket.on('drain', pump);
      pump();
    });
    socket.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headers = pending.subarray(0, end).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        out.statuses.push(headers.split('\r\n')[0] ?? '');
        out.bodies.push(pending.subarray(end + 4, end + 4 + length).toString('utf8'));
        pending = pending.subarray(end + 4 + length);
        if (!Buffer.isBuffer(body)) continue;
        if (out.statuses.length === 1) socket.write('GET / HTTP/1.1\r\nhost: q\r\n\r\n');
        else socket.end();
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      out.error = e.code;
    });
    socket.on('close', () => resolve({ ...out, ms: Date.now() - t0 }));
  });
}

// Several times the limit: most of it is still unread when the server answers.
const big = Buffer.alloc(4 * 1024 * 1024, 'a');

/** A request head declaring a JSON body of `length` bytes. */
function headOf(method: string, length: number): string {
  return `${method} /x/_search HTTP/1.1\r\nhost: q\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
}

/** A client trickling a refused body gets its 413 and is cut off after about 2 s. */
async function expectTrickleCutOff(method: string): Promise<void> {
  const out = await exchange(headOf(method, 100_000_000), 'trickle');
  expect(out.statuses).toEqual(['HTTP/1.1 413 Payload Too Large']);
  expect(out.ms).toBeGreaterThan(1500);
  expect(out.ms).toBeLessThan(10_000);
}

describe('a refused body', () => {
  it('reaches the client as a 413, declared or chunked, and the connection serves on', async () => {
    const declared = headOf('POST', big.length);
    let chunks = '';
    for (let i = 0; i < big.length; i += 64 * 1024) {
      const c = big.subarray(i, i + 64 * 1024);
      chunks += `${c.length.toString(16)}\r\n${c.toString('latin1')}\r\n`;
    }
    const chunked = Buffer.from(`${chunks}0\r\n\r\n`, 'latin1');
    const streamed = 'POST /x/_search HTTP/1.1\r\nhost: q\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n';
    for (let i = 0; i < 4; i++) {
      for (const [head, body] of [
        [declared, big],
        [streamed, chunked],
      ] as const) {
        const out = await exchange(head, body);
        expect(out.error).toBeUndefined();
        expect(out.statuses).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
        expect(JSON.parse(out.bodies[0] ?? '').error.type).toBe('content_too_long_exception');
      }
    }
  });

  it('is read for a bounded time only: a client that never stops sending is cut off', async () => {
    const out = await exchange(headOf('POST', 100_000_000_000), 'endless');
    expect(out.statuses).toEqual(['HTTP/1.1 413 Payload Too Large']);
    expect(out.ms).toBeLessThan(10_000);
  });

  it('is read for a bounded time only: a client that trickles is cut off after about 2 s', async () => {
    await expectTrickleCutOff('POST');
  });

  it('bounds a refused GET body the same way', async () => {
    const whole = await exchange(headOf('GET', big.length), big);
    expect(whole.error).toBeUndefined();
    expect(whole.statuses).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
    await expectTrickleCutOff('GET');
  });

  it('leaves the node serving', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
  });
});
