// Notification settings firing on a real node: a force merge run in the background (and one run
// in the foreground) sends its title and message to the channels of its task's one-time setting
// and of the force-merge setting, each channel once, after the configured delay; the one-time
// setting is then gone and the global one kept. Receivers are loopback HTTP and SMTP servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, freePort, startQuarry, type QuarryServer } from '../support/server';
import { eventually, startHttpReceiver, type HttpReceiver } from '../support/http-receiver';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

const DELAY_MS = 2500;
const CLUSTER = 'lron-test';

let server: QuarryServer;
let nodeId: string;
let hooks: HttpReceiver;
let smtp: SmtpReceiver;
let deadPort: number;

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

const requestsTo = (path: string) => hooks.requests.filter((r) => r.path === path);

/** Runs a force merge in the background; returns its task id once the merge has ended. */
async function backgroundMerge(target: string): Promise<string> {
  const started = await call('POST', `/${target}/_forcemerge?wait_for_completion=false`);
  expect(started.status).toBe(200);
  const task = started.json.task as string;
  await taskEnded(task);
  return task;
}

/** Waits until a background task has ended (its kept result says `completed`). */
async function taskEnded(task: string): Promise<Json> {
  return eventually(async () => {
    const r = await call('GET', `/_tasks/${task}`);
    return r.json.completed === true ? r.json : undefined;
  }, 15_000, `task ${task} to end`);
}

/** Waits until the setting `id` no longer exists (its firing deletes it once done). */
async function settingGone(id: string): Promise<void> {
  await eventually(async () => ((await call('GET', `/_plugins/_im/lron/${id}`)).status === 404 ? true : undefined), 15_000, `${id} to be deleted`);
}

beforeAll(async () => {
  hooks = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  deadPort = await freePort();
  server = await startQuarry({ settings: { 'plugins.lron.notification_delay': `${DELAY_MS}ms`, 'cluster.name': CLUSTER } });
  nodeId = Object.keys((await call('GET', '/_nodes')).json.nodes as Json)[0] ?? '';
  const channel = async (config_id: string, config: Json) => expect((await call('POST', '/_plugins/_notifications/configs', { config_id, config })).status).toBe(200);
  await channel('hook', { name: 'Hook', config_type: 'webhook', webhook: { url: `${hooks.url}/hook`, header_params: { 'Content-Type': 'application/json', 'X-Source': 'quarry' } } });
  await channel('slack', { name: 'Slack', config_type: 'slack', slack: { url: `${hooks.url}/slack` } });
  await channel('smtp', { name: 'Mail server', config_type: 'smtp_account', smtp_account: { host: '127.0.0.1', port: smtp.port, method: 'none', from_address: 'quarry@example.com' } });
  await channel('mail', { name: 'Ops mail', config_type: 'email', email: { email_account_id: 'smtp', recipient_list: [{ recipient: 'ops@example.com' }] } });
  await channel('dead', { name: 'Dead', config_type: 'webhook', webhook: { url: `http://127.0.0.1:${deadPort}/` } });
  expect((await call('PUT', '/books', { settings: { number_of_shards: 1 } })).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await call('POST', '/books/_doc?refresh=true', { title: `book ${i}` })).status).toBe(201);
  const global = await call('PUT', '/_plugins/_im/lron/LRON:indices:admin%2Fforcemerge', {
    lron_config: { action_name: 'indices:admin/forcemerge', channels: [{ id: 'slack' }, { id: 'mail' }] },
  });
  expect(global.status).toBe(200);
});

afterAll(async () => {
  await cleanupServers();
  await hooks.close();
  await smtp.close();
});

describe('firing notification settings', () => {
  it('notifies a background force merge to its one-time and global channels, each once, after the delay', async () => {
    const started = Date.now();
    const task = await backgroundMerge('books');
    // The merge has ended; a setting made for its task now still counts.
    const oneTime = await call('POST', '/_plugins/_im/lron', { lron_config: { task_id: task, channels: [{ id: 'hook' }, { id: 'slack' }] } });
    expect(oneTime.json._id).toBe(`LRON:${task}`);
    expect(hooks.requests).toEqual([]);
    await eventually(() => (requestsTo('/hook').length === 1 && requestsTo('/slack').length === 1 && smtp.mails.length === 1 ? true : undefined));
    // Sent no sooner than the delay after the merge ended (which was after it started).
    expect(Math.min(...hooks.requests.map((r) => r.at)) - started).toBeGreaterThanOrEqual(DELAY_MS);
    const title = `Force merge operation on [${CLUSTER}/books] has completed`;
    const message = `The force merge operation on [${CLUSTER}/books] has been completed.`;
    const hook = requestsTo('/hook')[0];
    expect(hook?.method).toBe('POST');
    expect(hook?.body).toBe(message);
    expect(hook?.headers['content-type']).toBe('application/json');
    expect(hook?.headers['x-source']).toBe('quarry');
    expect(requestsTo('/slack')[0]?.body).toBe(JSON.stringify({ text: `${title}\n\n${message}` }));
    const mail = smtp.mails[0];
    expect(mail?.from).toBe('quarry@example.com');
    expect(mail?.to).toEqual(['ops@example.com']);
    expect(mail?.data).toMatch(new RegExp(`\\r\\nSubject: ${title.replace(/[[\]/]/g, '\\$&')}\\r\\n`));
    expect(mail?.data).toContain('\r\nTo: ops@example.com\r\n');
    expect(mail?.data).toContain('Content-Type: text/plain; charset=UTF-8\r\n');
    expect(mail?.data.endsWith(`\r\n\r\n${message}\r\n`)).toBe(true);
    // The one-time setting is gone, the global one stays.
    await settingGone(`LRON:${task}`);
    expect(await call('GET', `/_plugins/_im/lron/LRON:${task}`)).toEqual({
      status: 404,
      json: { error: { root_cause: [{ type: 'status_exception', reason: `lronConfig LRON:${task} not found` }], type: 'status_exception', reason: `lronConfig LRON:${task} not found` }, status: 404 },
    });
    expect((await call('GET', '/_plugins/_im/lron')).json.lron_configs.map((c: Json) => c._id)).toEqual(['LRON:indices:admin/forcemerge']);
    // Nothing more arrives.
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.requests).toHaveLength(2);
    expect(smtp.mails).toHaveLength(1);
  });

  it('notifies a failed force merge with the message OpenSearch builds for it', async () => {
    hooks.requests.length = 0;
    smtp.mails.length = 0;
    const task = await backgroundMerge('nowhere');
    await call('POST', '/_plugins/_im/lron', { lron_config: { task_id: task, lron_condition: { success: true, failure: true }, channels: [{ id: 'hook' }] } });
    await eventually(() => (requestsTo('/hook').length === 1 && requestsTo('/slack').length === 1 && smtp.mails.length === 1 ? true : undefined));
    const title = `Force merge operation on [${CLUSTER}/nowhere] has failed`;
    const message = 'index [nowhere] no such index [nowhere].';
    expect(requestsTo('/hook')[0]?.body).toBe(message);
    expect(requestsTo('/slack')[0]?.body).toBe(JSON.stringify({ text: `${title}\n\n${message}` }));
    expect(smtp.mails[0]?.data).toContain(`\r\nSubject: ${title}\r\n`);
    await settingGone(`LRON:${task}`);
  });

  it('leaves out settings whose condition does not match, and still removes the one-time one', async () => {
    hooks.requests.length = 0;
    smtp.mails.length = 0;
    const onlyFailures = await call('PUT', '/_plugins/_im/lron/LRON:indices:admin%2Fforcemerge', {
      lron_config: { action_name: 'indices:admin/forcemerge', lron_condition: { success: false }, channels: [{ id: 'slack' }] },
    });
    expect(onlyFailures.status).toBe(200);
    const task = await backgroundMerge('books');
    await call('POST', '/_plugins/_im/lron', { lron_config: { task_id: task, lron_condition: { success: false, failure: true }, channels: [{ id: 'hook' }] } });
    await settingGone(`LRON:${task}`);
    expect(hooks.requests).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });

  it('notifies a foreground force merge through the global setting and logs failed deliveries', async () => {
    hooks.requests.length = 0;
    const global = await call('PUT', '/_plugins/_im/lron/LRON:indices:admin%2Fforcemerge', {
      lron_config: { action_name: 'indices:admin/forcemerge', channels: [{ id: 'dead' }, { id: 'slack' }] },
    });
    expect(global.status).toBe(200);
    const merged = await call('POST', '/books/_forcemerge?max_num_segments=1');
    expect(merged).toEqual({ status: 200, json: { _shards: { total: 2, successful: 1, failed: 0 } } });
    await eventually(() => (requestsTo('/slack').length === 1 ? true : undefined));
    expect(requestsTo('/slack')[0]?.body).toContain(`The force merge operation on [${CLUSTER}/books] has been completed.`);
    const logged = await eventually(() => server.output().split('\n').find((l) => l.includes('notifying channel [dead]')));
    expect(logged).toMatch(
      new RegExp(
        `^\\[quarry\\] lron: notifying channel \\[dead\\] of task \\[${nodeId}:\\d+\\] \\(indices:admin/forcemerge\\) failed: 500 Failed to send webhook message Connect to 127\\.0\\.0\\.1:${deadPort} failed: Connection refused$`,
      ),
    );
  });

  it('notifies a reindex and a resize with the texts OpenSearch builds for them', async () => {
    hooks.requests.length = 0;
    const setting = async (action: string) =>
      expect((await call('PUT', `/_plugins/_im/lron/LRON:${action.replace(/\//g, '%2F')}`, { lron_config: { action_name: action, channels: [{ id: 'hook' }] } })).status).toBe(200);
    await setting('indices:data/write/reindex');
    await setting('indices:admin/resize');
    const started = await call('POST', '/_reindex?wait_for_completion=false', { source: { index: 'books' }, dest: { index: 'copies' } });
    const task = started.json.task as string;
    expect((await taskEnded(task)).response.created).toBe(3);
    const clone = await call('POST', '/books/_clone/books-clone');
    expect(clone.json.error.type).toBe('illegal_state_exception');
    await eventually(() => (requestsTo('/hook').length === 2 ? true : undefined));
    const bodies = requestsTo('/hook').map((r) => r.body);
    expect(bodies).toContain(
      `The reindex operation from [${CLUSTER}/books] to [${CLUSTER}/copies] has been completed.\n\n*Summary (number of documents)* \nTotal: 3, Created: 3, Updated: 0, Deleted: 0, Conflicts: 0`,
    );
    expect(bodies).toContain(`[${CLUSTER}/books] must be set to block write to clone the index. To set it to block write, use \`PUT /books/_block/write\` `);
  });

  it('notifies an open, in the foreground or the background, with the texts OpenSearch builds for it', async () => {
    hooks.requests.length = 0;
    const setting = await call('PUT', '/_plugins/_im/lron/LRON:indices:admin%2Fopen', {
      lron_config: { action_name: 'indices:admin/open', lron_condition: { success: true, failure: true }, channels: [{ id: 'hook' }] },
    });
    expect(setting.status).toBe(200);
    expect((await call('POST', '/books/_close')).status).toBe(200);
    // Closing is no long-running operation: nothing is sent for it.
    await new Promise((r) => setTimeout(r, DELAY_MS + 500));
    expect(requestsTo('/hook')).toEqual([]);
    expect(await call('POST', '/books/_open')).toEqual({ status: 200, json: { acknowledged: true, shards_acknowledged: true } });
    await eventually(() => (requestsTo('/hook').length === 1 ? true : undefined));
    expect(requestsTo('/hook')[0]?.body).toBe(`[${CLUSTER}/books] has been set to open.`);

    expect((await call('POST', '/books/_close')).status).toBe(200);
    const started = await call('POST', '/books,nowhere/_open?wait_for_completion=false');
    expect(started.status).toBe(200);
    const task = started.json.task as string;
    const ended = await taskEnded(task);
    expect(ended.error.type).toBe('index_not_found_exception');
    // Its one-time setting, made once it has ended, still counts; slack gets the title too.
    await call('POST', '/_plugins/_im/lron', { lron_config: { task_id: task, lron_condition: { failure: true }, channels: [{ id: 'slack' }] } });
    await eventually(() => (requestsTo('/hook').length === 2 && requestsTo('/slack').length === 1 ? true : undefined));
    expect(requestsTo('/hook')[1]?.body).toBe('index [nowhere] no such index [nowhere].');
    expect(requestsTo('/slack')[0]?.body).toBe(JSON.stringify({ text: `2 indexes from [${CLUSTER}] have failed to open\n\nindex [nowhere] no such index [nowhere].` }));
    await settingGone(`LRON:${task}`);
    expect((await call('POST', '/books/_open')).status).toBe(200);
    expect((await call('GET', '/books/_count')).json.count).toBe(3);
  });
});
