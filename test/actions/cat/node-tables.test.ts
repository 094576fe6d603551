// The `_cat` tables whose cells come from the process (heap, memory, disk, file descriptors,
// addresses, tasks) or the engine's pools, on a real node: values are real, units apply, and
// the tables list what runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../../support/server';

let server: QuarryServer;

beforeAll(async () => {
  server = await startQuarry();
});

afterAll(async () => {
  await cleanupServers();
});

async function text(path: string): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(server.url + path);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

async function rows(path: string): Promise<Record<string, string | null>[]> {
  const r = await text(path);
  expect(r.status).toBe(200);
  return JSON.parse(r.text) as Record<string, string | null>[];
}

describe('_cat/nodes', () => {
  it('reports the process: heap, memory, disk, descriptors, addresses', async () => {
    const [n] = await rows('/_cat/nodes?format=json&bytes=b&h=heap.current,heap.max,ram.max,disk.total,disk.avail,file_desc.current,file_desc.max,http_address,jdk,pid,uptime,cpu,load_1m&time=ms');
    expect(n).toBeDefined();
    const num = (k: string): number => Number(n?.[k]);
    expect(num('heap.current')).toBeGreaterThan(0);
    expect(num('heap.max')).toBeGreaterThan(num('heap.current'));
    expect(num('ram.max')).toBeGreaterThan(1 << 20);
    expect(num('disk.total')).toBeGreaterThanOrEqual(num('disk.avail'));
    expect(num('file_desc.current')).toBeGreaterThan(0);
    expect(num('file_desc.max')).toBeGreaterThanOrEqual(num('file_desc.current'));
    expect(n?.http_address).toBe(`127.0.0.1:${server.port}`);
    expect(n?.jdk).toMatch(/^v\d+\./);
    expect(num('pid')).toBeGreaterThan(0);
    expect(num('uptime')).toBeGreaterThan(0);
    expect(num('cpu')).toBeGreaterThanOrEqual(0);
    expect(n?.load_1m).toMatch(/^\d+\.\d\d$/);
  });

  it('sums the indices statistics of the node', async () => {
    await fetch(`${server.url}/cn1/_doc/1?refresh=true`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    await fetch(`${server.url}/cn2/_doc/1?refresh=true`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    const [n] = await rows('/_cat/nodes?format=json&h=iito,indexing.index_total,sc');
    expect(Number(n?.iito)).toBeGreaterThanOrEqual(2);
    expect(n?.['indexing.index_total']).toBe(n?.iito);
    expect(Number(n?.sc)).toBeGreaterThanOrEqual(2);
    const [a] = await rows('/_cat/allocation?format=json&h=shards,disk.indices&bytes=b');
    expect(Number(a?.shards)).toBeGreaterThanOrEqual(2);
    expect(Number(a?.['disk.indices'])).toBeGreaterThan(0);
  });
});

describe('_cat/thread_pool', () => {
  it('shows the engine pools and counts completed jobs', async () => {
    const before = await rows('/_cat/thread_pool?format=json&h=name,type,size,completed');
    expect(before.map((r) => r.name)).toEqual(['search', 'write']);
    for (const r of before) {
      expect(r.type).toBe('fixed');
      expect(Number(r.size)).toBeGreaterThan(0);
    }
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/_search`);
    const [after] = await rows('/_cat/thread_pool/sea*?format=json&h=name,completed');
    expect(after?.name).toBe('search');
    expect(Number(after?.completed)).toBeGreaterThanOrEqual(Number(before[0]?.completed) + 3);
  });
});

describe('_cat/tasks', () => {
  it('lists itself and the child it runs, with the caller opaque id', async () => {
    const res = await fetch(`${server.url}/_cat/tasks?format=json&h=action,type,parent_task_id,x_opaque_id,running_time_ns`, { headers: { 'X-Opaque-Id': 'mine' } });
    const list = (await res.json()) as Record<string, string>[];
    const own = list.find((t) => t.action === 'cluster:monitor/tasks/lists');
    const child = list.find((t) => t.action === 'cluster:monitor/tasks/lists[n]');
    expect(own?.x_opaque_id).toBe('mine');
    expect(own?.parent_task_id).toBe('-');
    expect(child?.type).toBe('direct');
    expect(child?.parent_task_id).toMatch(/^[\w-]+:\d+$/);
    expect(Number(own?.running_time_ns)).toBeGreaterThan(0);
  });
});

describe('_cat', () => {
  it('lists the _cat endpoints the node answers, each of which answers', async () => {
    const r = await text('/_cat');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    const lines = r.text.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe('=^.^=');
    const plain = lines.slice(1).filter((l) => !l.includes('{'));
    expect(plain).toContain('/_cat/nodes');
    for (const path of plain) expect((await text(`${path}?help`)).status, path).toBe(200);
  });

  it('answers help as text even when JSON is asked for', async () => {
    const r = await text('/_cat/shards?help&format=json');
    expect(r.type).toMatch(/^text\/plain/);
    expect(r.text.split('\n')[0]).toMatch(/^index +\| i,idx +\| index name +$/);
  });
});
