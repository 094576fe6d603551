import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverHttp } from '../../src/notifications/http-destination';
import { freePort } from '../support/server';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver';

let receiver: HttpReceiver;

beforeAll(async () => {
  receiver = await startHttpReceiver((r) => {
    if (r.path === '/empty') return { status: 204 };
    if (r.path === '/moved') return { status: 302, headers: { location: '/elsewhere' }, body: 'see elsewhere' };
    if (r.path === '/broken') return { status: 503, body: 'down for maintenance' };
    return { status: 200, body: `got ${r.body}` };
  });
});

afterAll(async () => {
  await receiver.close();
});

const send = (path: string, extra: Partial<Parameters<typeof deliverHttp>[0]> = {}) =>
  deliverHttp({ url: `${receiver.url}${path}`, method: 'POST', headers: {}, body: 'hello', maxResponseChars: 1000, ...extra });

describe('HTTP delivery', () => {
  it('posts the body and reports the answer as the status text', async () => {
    expect(await send('/ok', { method: 'PATCH', headers: { 'X-Token': 't' } })).toEqual({ status_code: '200', status_text: 'got hello' });
    const r = receiver.requests.at(-1);
    expect(r).toMatchObject({ method: 'PATCH', path: '/ok', body: 'hello' });
    expect(r?.headers['x-token']).toBe('t');
    // Apache's string entity type, added because no content type was configured.
    expect(r?.headers['content-type']).toBe('text/plain; charset=UTF-8');
  });

  it('keeps a configured content type and reads an empty answer as {}', async () => {
    expect(await send('/empty', { headers: { 'Content-type': 'application/json' } })).toEqual({ status_code: '200', status_text: '{}' });
    expect(receiver.requests.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('does not follow redirects and fails on statuses outside 200-207', async () => {
    expect(await send('/moved')).toEqual({ status_code: '500', status_text: 'Failed to send webhook message Failed: see elsewhere' });
    expect(receiver.requests.some((r) => r.path === '/elsewhere')).toBe(false);
    expect(await send('/broken')).toEqual({ status_code: '500', status_text: 'Failed to send webhook message Failed: down for maintenance' });
  });

  it('caps the status text and reports a refused connection', async () => {
    expect((await send('/ok', { maxResponseChars: 5 })).status_text).toBe('got h');
    const port = await freePort();
    expect(await deliverHttp({ url: `http://127.0.0.1:${port}/`, method: 'POST', headers: {}, body: '', maxResponseChars: 10 })).toEqual({
      status_code: '500',
      status_text: `Failed to send webhook message Connect to 127.0.0.1:${port} failed: Connection refused`,
    });
  });
});
