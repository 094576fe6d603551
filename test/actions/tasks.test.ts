// The tasks API (spec 000) on a real node: listing (grouped by node, by parent, or not at all,
// filtered by action, node and parent), getting one task, and cancelling a running search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;
let nodeId: string;

beforeAll(async () => {
  server = await startQuarry();
  nodeId = Object.keys(((await call('GET', '/_nodes')).body as { nodes: Record<string, unknown> }).nodes)[0] ?? '';
});

afterAll(async () => {
  await cleanupServers();
});

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

interface TaskEntry {
  node: string;
  id: number;
  type: string;
  action: string;
  description?: string;
  cancellable: boolean;
  cancelled: boolean;
  parent_task_id?: string;
  headers: Record<string, string>;
  running_time_in_nanos: number;
  start_time_in_millis: number;
  children?: TaskEntry[];
}

function tasksOf(body: unknown): TaskEntry[] {
  const nodes = (body as { nodes: Record<string, { tasks: Record<string, TaskEntry> }> }).nodes;
  return Object.values(nodes).flatMap((n) => Object.values(n.tasks));
}

describe('tasks API', () => {
  it('lists itself and its per-node child, with the caller X-Opaque-Id', async () => {
    const res = await call('GET', '/_tasks', undefined, { 'X-Opaque-Id': 'who-asks' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-opaque-id')).toBe('who-asks');
    const node = (res.body as { nodes: Record<string, { name: string; roles: string[] }> }).nodes[nodeId];
    expect(node?.roles).toContain('data');
    const tasks = tasksOf(res.body);
    const list = tasks.find((t) => t.action === 'cluster:monitor/tasks/lists');
    const child = tasks.find((t) => t.action === 'cluster:monitor/tasks/lists[n]');
    expect(list).toMatchObject({ node: nodeId, type: 'transport', cancellable: false, cancelled: false, headers: { 'X-Opaque-Id': 'who-asks' } });
    expect(list?.description).toBeUndefined();
    expect(child).toMatchObject({ type: 'direct', parent_task_id: `${nodeId}:${list?.id}`, headers: {} });
    expect(list?.running_time_in_nanos).toBeGreaterThan(0);
    expect(Math.abs((list?.start_time_in_millis ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('groups by parents or not at all, and filters', async () => {
    const parents = (await call('GET', '/_tasks?group_by=parents&detailed=true')).body as { tasks: Record<string, TaskEntry> };
    const top = Object.values(parents.tasks).find((t) => t.action === 'cluster:monitor/tasks/lists');
    expect(top?.description).toBe('');
    expect(top?.children?.map((c) => c.action)).toEqual(['cluster:monitor/tasks/lists[n]']);
    const flat = (await call('GET', '/_tasks?group_by=none&actions=*lists')).body as { tasks: TaskEntry[] };
    expect(flat.tasks.map((t) => t.action)).toEqual(['cluster:monitor/tasks/lists']);
    expect((await call('GET', '/_tasks?actions=indices:*')).body).toEqual({ nodes: {} });
    expect((await call('GET', '/_tasks?nodes=elsewhere')).body).toEqual({ nodes: {} });
    expect(tasksOf((await call('GET', `/_tasks?nodes=_local&parent_task_id=${nodeId}:999999`)).body)).toEqual([]);
    expect(tasksOf((await call('GET', '/_tasks?parent_task_id=-1')).body).length).toBe(2);
    const bad = await call('GET', '/_tasks?group_by=bogus');
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { reason: string } }).error.reason).toBe('[group_by] must be one of [nodes], [parents] or [none] but was [bogus]');
    expect(((await call('GET', '/_tasks?parent_task_id=bad')).body as { error: { reason: string } }).error.reason).toBe('malformed task id bad');
  });

  it('answers for tasks that are not running as OpenSearch without stored results does', async () => {
    const here = await call('GET', `/_tasks/${nodeId}:999999`);
    expect(here.status).toBe(404);
    expect(here.body).toMatchObject({
      error: { type: 'resource_not_found_exception', reason: `task [${nodeId}:999999] isn't running and hasn't stored its results`, caused_by: { type: 'index_not_found_exception' } },
    });
    const there = await call('GET', '/_tasks/other:5');
    expect((there.body as { error: { reason: string } }).error.reason).toBe("task [other:5] belongs to the node [other] which isn't part of the cluster and there is no record of the task");
    expect((await call('GET', '/_tasks/abc')).status).toBe(400);
    const cancelMissing = await call('POST', `/_tasks/${nodeId}:999999/_cancel`);
    expect(cancelMissing.body).toEqual({
      node_failures: [{ type: 'failed_node_exception', reason: `Failed node [${nodeId}]`, node_id: nodeId, caused_by: { type: 'resource_not_found_exception', reason: `task [${nodeId}:999999] is not found` } }],
      nodes: {},
    });
    expect((await call('POST', '/_tasks/_cancel')).body).toEqual({ nodes: {} });
  });

  it('gets and cancels a running multi-search, whose searches after the cancel fail with it', async () => {
    await call('PUT', '/big', JSON.stringify({ settings: { number_of_shards: 4 }, mappings: { properties: { k: { type: 'keyword' }, n: { type: 'long' } } } }));
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ k: `k${i % 997}`, n: i }));
    expect((await call('POST', '/big/_bulk?refresh=true', `${lines.join('\n')}\n`)).status).toBe(200);
    const searches: string[] = [];
    for (let i = 0; i < 4000; i++) {
      searches.push(JSON.stringify({ request_cache: false }), JSON.stringify({ size: 0, aggs: { k: { terms: { field: 'k', size: 500 } }, s: { stats: { field: 'n' } } } }));
    }
    const running = fetch(`${server.url}/big/_msearch`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${searches.join('\n')}\n` });
    let task: TaskEntry | undefined;
    for (let i = 0; i < 200 && task === undefined; i++) {
      task = tasksOf((await call('GET', '/_tasks?actions=indices:data/read/msearch')).body)[0];
    }
    expect(task).toMatchObject({ action: 'indices:data/read/msearch', cancellable: true, cancelled: false });
    // A list waiting for the search is a running task that cannot be cancelled.
    const waiter = fetch(`${server.url}/_tasks?wait_for_completion=true&actions=indices:data/read/msearch&timeout=60s`, { headers: { 'X-Opaque-Id': 'waiter' } });
    let waiting: TaskEntry | undefined;
    for (let i = 0; i < 200 && waiting === undefined; i++) {
      waiting = tasksOf((await call('GET', '/_tasks?actions=cluster:monitor/tasks/lists')).body).find((t) => t.headers['X-Opaque-Id'] === 'waiter');
    }
    const refused = await call('POST', `/_tasks/${nodeId}:${waiting?.id}/_cancel`);
    expect(refused.body).toMatchObject({
      node_failures: [{ caused_by: { type: 'illegal_argument_exception', reason: `task [${nodeId}:${waiting?.id}] doesn't support cancellation` } }],
      nodes: {},
    });
    const got = await call('GET', `/_tasks/${nodeId}:${task?.id}`);
    expect(got.body).toMatchObject({ completed: false, task: { id: task?.id, action: 'indices:data/read/msearch', description: '' } });
    const cancelled = await call('POST', `/_tasks/${nodeId}:${task?.id}/_cancel`);
    expect(tasksOf(cancelled.body)).toMatchObject([{ id: task?.id, cancelled: true }]);
    const waited = await call('GET', `/_tasks/${nodeId}:${task?.id}?wait_for_completion=true&timeout=60s`);
    expect(waited.body).toMatchObject({ completed: true, task: { id: task?.id, cancelled: true } });
    const answer = (await (await running).json()) as { responses: Array<{ status: number; error?: { type: string; root_cause: Array<{ type: string; reason: string }> } }> };
    expect(answer.responses).toHaveLength(4000);
    const failed = answer.responses.filter((r) => r.error !== undefined);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.error?.root_cause[0]).toEqual({ type: 'task_cancelled_exception', reason: 'cancelled task with reason: by user request' });
    // Once cancelled, no later search runs.
    const firstFailed = answer.responses.findIndex((r) => r.error !== undefined);
    expect(answer.responses.slice(firstFailed).every((r) => r.error !== undefined)).toBe(true);
    expect((await call('GET', '/_tasks?actions=indices:data/read/msearch')).body).toEqual({ nodes: {} });
    expect((await waiter).status).toBe(200);
  }, 120_000);

});
