// The notifications API (`/_plugins/_notifications`) through app.inject(): channel configs'
// CRUD, lists and filters, features, test sends, and every refusal with OpenSearch's words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { injectJson, type Json, type JsonAnswer } from '../support/json-call';

let app: App;
let dataDir: string;
let hooks: HttpReceiver;
let smtp: SmtpReceiver;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-notifications-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  hooks = await startHttpReceiver((r) => (r.path === '/down' ? { status: 500, body: 'nope' } : { status: 200, body: 'ok' }));
  smtp = await startSmtpReceiver({ reject: ['ghost@example.com'] });
});

afterAll(async () => {
  await app.close();
  await hooks.close();
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const req = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<JsonAnswer> => injectJson(app, method, url, body);

const BASE = '/_plugins/_notifications';

function error(status: number, type: string, reason: string): { status: number; json: Json } {
  return { status, json: { error: { root_cause: [{ type, reason }], type, reason }, status } };
}

describe('notification configs', () => {
  it('creates, reads, updates and deletes a config', async () => {
    const before = Date.now();
    const created = await req('POST', `${BASE}/configs`, {
      config_id: 'slack-1',
      config: { name: 'Ops', description: 'ops room', config_type: 'slack', is_enabled: true, slack: { url: `${hooks.url}/slack` } },
    });
    expect(created).toEqual({ status: 200, json: { config_id: 'slack-1' } });
    const got = await req('GET', `${BASE}/configs/slack-1`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      start_index: 0,
      total_hits: 1,
      total_hit_relation: 'eq',
      config_list: [
        {
          config_id: 'slack-1',
          last_updated_time_ms: got.json.config_list[0].created_time_ms,
          created_time_ms: got.json.config_list[0].created_time_ms,
          config: { name: 'Ops', description: 'ops room', config_type: 'slack', is_enabled: true, slack: { url: `${hooks.url}/slack` } },
        },
      ],
    });
    expect(got.json.config_list[0].created_time_ms).toBeGreaterThanOrEqual(before);
    const updated = await req('PUT', `${BASE}/configs/slack-1`, { config: { name: 'Ops 2', config_type: 'slack', slack: { url: `${hooks.url}/slack2` } } });
    expect(updated).toEqual({ status: 200, json: { config_id: 'slack-1' } });
    const after = (await req('GET', `${BASE}/configs/slack-1`)).json.config_list[0];
    expect(after.config).toEqual({ name: 'Ops 2', description: '', config_type: 'slack', is_enabled: true, slack: { url: `${hooks.url}/slack2` } });
    expect(after.created_time_ms).toBe(got.json.config_list[0].created_time_ms);
    expect(after.last_updated_time_ms).toBeGreaterThanOrEqual(after.created_time_ms);
    expect(await req('DELETE', `${BASE}/configs/slack-1`)).toEqual({ status: 200, json: { delete_response_list: { 'slack-1': 'OK' } } });
    expect(await req('GET', `${BASE}/configs/slack-1`)).toEqual(error(404, 'status_exception', 'NotificationConfig slack-1 not found'));
  });

  it('generates an id when none is given and refuses an id in use', async () => {
    const created = await req('POST', `${BASE}/configs`, { config: { name: 'Hook', config_type: 'webhook', webhook: { url: `${hooks.url}/auto` } } });
    expect(created.status).toBe(200);
    expect(created.json.config_id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const again = await req('POST', `${BASE}/configs`, { config_id: created.json.config_id, config: { name: 'Hook', config_type: 'webhook', webhook: { url: `${hooks.url}/auto` } } });
    expect(again).toEqual(error(409, 'status_exception', `[${created.json.config_id}]: version conflict, document already exists (current version [1])`));
    await req('DELETE', `${BASE}/configs/${created.json.config_id}`);
  });

  it('refuses bad requests with the plugin’s statuses and words', async () => {
    const slack = { name: 'S', config_type: 'slack', slack: { url: 'https://hooks.slack.com/services/x' } };
    expect(await req('POST', `${BASE}/configs`, { config_id: 'a b!', config: slack })).toEqual(error(400, 'illegal_argument_exception', 'Invalid characters in id :  !'));
    expect(await req('POST', `${BASE}/configs`, { config_id: 'x' })).toEqual(error(400, 'illegal_argument_exception', 'config field absent'));
    expect(await req('POST', `${BASE}/configs`, { config: { name: 'n', config_type: 'pager' } })).toEqual(error(406, 'status_exception', 'NotificationConfig with type NONE is not acceptable'));
    expect(await req('POST', `${BASE}/configs`, { config: { name: 'T', config_type: 'microsoft_teams', microsoft_teams: { url: 'https://example.com/hook' } } })).toEqual(
      error(400, 'status_exception', 'Wrong Microsoft Teams url. Should contain "webhook.office.com"'),
    );
    const noBody = await app.fastify.inject({ method: 'POST', url: `${BASE}/configs` });
    expect(noBody.statusCode).toBe(400);
    expect(JSON.parse(noBody.body).error.reason).toBe('request body is required');
    expect((await req('POST', `${BASE}/configs`, '[]')).json.error).toMatchObject({
      type: 'parsing_exception',
      reason: 'Failed to parse object: expecting token of type [START_OBJECT] but found [START_ARRAY]',
      line: 1,
      col: 1,
    });
    expect(await req('PUT', `${BASE}/configs/nope`, { config: slack })).toEqual(error(404, 'status_exception', 'NotificationConfig nope not found'));
    await req('POST', `${BASE}/configs`, { config_id: 'typed', config: slack });
    expect(await req('PUT', `${BASE}/configs/typed`, { config: { name: 'W', config_type: 'webhook', webhook: { url: 'http://x.example.com' } } })).toEqual(
      error(409, 'status_exception', 'Config type cannot be changed after creation'),
    );
    expect(await req('PUT', `${BASE}/configs/typed`, { config_id: '', config: slack })).toEqual(
      error(400, 'action_request_validation_exception', 'Validation Failed: 1: configId is null or empty;'),
    );
    expect(await req('DELETE', `${BASE}/configs/nope`)).toEqual(error(404, 'status_exception', 'NotificationConfig nope not found'));
    expect(await req('DELETE', `${BASE}/configs?config_id_list=typed,nope,gone`)).toEqual(error(404, 'status_exception', 'NotificationConfig [nope, gone] not found'));
    expect(await req('DELETE', `${BASE}/configs`)).toEqual({ status: 400, json: { error: 'either config_id or config_id_list is required', status: 400 } });
    expect((await req('GET', `${BASE}/configs/typed`)).status).toBe(200);
    expect(await req('GET', `${BASE}/configs?sort_field=nope`)).toEqual(error(406, 'status_exception', 'Sort on nope not acceptable'));
    expect(await req('GET', `${BASE}/configs?sort_order=up`)).toEqual(error(400, 'illegal_argument_exception', 'Unknown SortOrder [up]'));
    expect(await req('GET', `${BASE}/configs?max_items=-1`)).toEqual(error(400, 'status_exception', '[size] parameter cannot be negative, found [-1]'));
    expect((await req('GET', `${BASE}/configs?from_index=x`)).json.error.reason).toBe('Failed to parse int parameter [from_index] with value [x]');
    expect(await req('GET', `${BASE}/configs?created_time_ms=1..2..3`)).toEqual(error(406, 'status_exception', "Invalid Range format 1..2..3, allowed format 'exact' or 'from..to'"));
    expect(await req('GET', `${BASE}/configs?email.recipient_list.recipient.keyword=a`)).toEqual(
      error(406, 'status_exception', 'Query on email.recipient_list.recipient.keyword not acceptable'),
    );
    expect(await req('GET', `${BASE}/configs?is_enabled=yes`)).toEqual(error(400, 'illegal_argument_exception', 'Failed to parse value [yes] as only [true] or [false] are allowed.'));
    expect((await req('GET', `${BASE}/configs?bogus=1`)).json.error.reason).toBe(`request [${BASE}/configs] contains unrecognized parameter: [bogus]`);
    expect(await req('DELETE', `${BASE}/configs?config_id_list=typed`)).toEqual({ status: 200, json: { delete_response_list: { typed: 'OK' } } });
  });

  it('checks an email channel’s account and groups', async () => {
    const account = { name: 'Mail', config_type: 'smtp_account', smtp_account: { host: '127.0.0.1', port: smtp.port, method: 'none', from_address: 'quarry@example.com' } };
    const group = { name: 'Team', config_type: 'email_group', email_group: { recipient_list: [{ recipient: 'team@example.com' }] } };
    expect((await req('POST', `${BASE}/configs`, { config_id: 'acct', config: account })).status).toBe(200);
    expect((await req('POST', `${BASE}/configs`, { config_id: 'grp', config: group })).status).toBe(200);
    const email = (accountId: string, groups: string[]) => ({
      config: { name: 'E', config_type: 'email', email: { email_account_id: accountId, recipient_list: [{ recipient: 'ops@example.com' }], email_group_id_list: groups } },
    });
    expect(await req('POST', `${BASE}/configs`, email('acct', ['acct']))).toEqual(error(400, 'status_exception', 'Config IDs acct is in both emailAccountID and emailGroupIds'));
    expect(await req('POST', `${BASE}/configs`, email('acct', ['g1', 'grp', 'g2']))).toEqual(error(404, 'status_exception', 'Config IDs not found:[g1, g2]'));
    expect(await req('POST', `${BASE}/configs`, email('grp', []))).toEqual(error(406, 'status_exception', 'configId grp is not a valid email account ID'));
    await req('POST', `${BASE}/configs`, { config_id: 'acct2', config: account });
    expect(await req('POST', `${BASE}/configs`, email('acct', ['acct2']))).toEqual(error(406, 'status_exception', 'configId acct2 is not a valid email group ID'));
    expect((await req('POST', `${BASE}/configs`, { config_id: 'mail', ...email('acct', ['grp']) })).status).toBe(200);
    await req('DELETE', `${BASE}/configs/acct2`);
  });

  it('lists, filters, sorts and pages configs; lists channels; tells its features', async () => {
    const make = (id: string, config: Json) => req('POST', `${BASE}/configs`, { config_id: id, config });
    await make('w1', { name: 'Alpha hook', config_type: 'webhook', is_enabled: false, webhook: { url: `${hooks.url}/w1` } });
    await make('c1', { name: 'Beta chime', config_type: 'chime', chime: { url: 'https://hooks.chime.aws/incomingwebhooks/x' } });
    await make('s1', { name: 'Gamma topic', config_type: 'sns', sns: { topic_arn: 'arn:aws:sns:us-east-1:123456789012:alerts' } });
    const ids = async (query: string) => ((await req('GET', `${BASE}/configs${query}`)).json.config_list as Json[]).map((c) => c.config_id);
    expect(await ids('')).toEqual(['acct', 'grp', 'mail', 'w1', 'c1', 's1']);
    expect(await ids('?config_type=webhook,chime')).toEqual(['w1', 'c1']);
    expect(await ids('?is_enabled=false')).toEqual(['w1']);
    expect(await ids('?name=gamma')).toEqual(['s1']);
    expect(await ids('?name.keyword=Beta%20chime')).toEqual(['c1']);
    expect(await ids('?email_group.recipient_list.recipient=team@example.com')).toEqual(['grp']);
    expect(await ids(`?query=${encodeURIComponent('alpha OR sns')}`)).toEqual(['w1', 's1']);
    expect(await ids(`?query=${encodeURIComponent('config.config_type:e*')}`)).toEqual(['grp', 'mail']);
    expect(await ids(`?text_query=${encodeURIComponent('sns')}`)).toEqual([]);
    // The address's words, any of them (the default operator), or as a phrase.
    expect(await ids(`?text_query=${encodeURIComponent('team@example.com')}`)).toEqual(['acct', 'grp', 'mail']);
    expect(await ids(`?text_query=${encodeURIComponent('"team@example.com"')}`)).toEqual(['grp']);
    expect((await req('GET', `${BASE}/configs?query=${encodeURIComponent('"unclosed')}`)).json.error).toMatchObject({ type: 'query_shard_exception', reason: 'Failed to parse query ["unclosed]' });
    expect(await ids('?sort_field=name&sort_order=desc')).toEqual(['grp', 'acct', 's1', 'mail', 'c1', 'w1']);
    expect(await ids('?sort_field=config_type&from_index=1&max_items=2')).toEqual(['mail', 'grp']);
    const page = (await req('GET', `${BASE}/configs?from_index=4&max_items=1`)).json;
    expect(page).toMatchObject({ start_index: 4, total_hits: 6, total_hit_relation: 'eq' });
    const created = (await req('GET', `${BASE}/configs/w1`)).json.config_list[0].created_time_ms as number;
    expect(await ids(`?created_time_ms=${created}..${created}`)).toContain('w1');
    expect(await ids(`?config_id_list=c1,w1`)).toEqual(['c1', 'w1']);
    expect(await req('GET', `${BASE}/configs?config_id_list=c1,zz`)).toEqual(error(404, 'status_exception', 'NotificationConfig [zz] not found'));
    const channels = (await req('GET', `${BASE}/channels`)).json;
    expect(channels).toEqual({
      start_index: 0,
      total_hits: 4,
      total_hit_relation: 'eq',
      channel_list: [
        { config_id: 'mail', name: 'E', description: '', config_type: 'email', is_enabled: true },
        { config_id: 'w1', name: 'Alpha hook', description: '', config_type: 'webhook', is_enabled: false },
        { config_id: 'c1', name: 'Beta chime', description: '', config_type: 'chime', is_enabled: true },
        { config_id: 's1', name: 'Gamma topic', description: '', config_type: 'sns', is_enabled: true },
      ],
    });
    expect((await req('GET', `${BASE}/features`)).json).toEqual({
      allowed_config_type_list: ['slack', 'chime', 'microsoft_teams', 'mattermost', 'webhook', 'email', 'sns', 'ses_account', 'smtp_account', 'email_group'],
      plugin_features: { tooltip_support: 'true' },
    });
  });
});

describe('test notifications', () => {
  const source = (id: string) => ({ title: `Test Message Title-${id}`, reference_id: id, severity: 'info', tags: [] });

  it('sends the test message to a webhook and an email channel', async () => {
    await req('POST', `${BASE}/configs`, { config_id: 'hook', config: { name: 'Hook', config_type: 'webhook', webhook: { url: `${hooks.url}/test`, header_params: { 'X-Key': 'k' } } } });
    const sent = await req('POST', `${BASE}/feature/test/hook`);
    expect(sent).toEqual({
      status: 200,
      json: {
        event_source: source('hook'),
        status_list: [{ config_id: 'hook', config_type: 'webhook', config_name: 'Hook', email_recipient_status: [], delivery_status: { status_code: '200', status_text: 'ok' } }],
      },
    });
    const got = hooks.requests.at(-1);
    expect(got).toMatchObject({ method: 'POST', path: '/test', body: 'Test message content body for config id hook' });
    expect(got?.headers['x-key']).toBe('k');
    const mailed = await req('GET', `${BASE}/feature/test/mail`);
    expect(mailed.json.status_list[0]).toEqual({
      config_id: 'mail',
      config_type: 'email',
      config_name: 'E',
      email_recipient_status: [
        { recipient: 'ops@example.com', delivery_status: { status_code: '200', status_text: 'Success' } },
        { recipient: 'team@example.com', delivery_status: { status_code: '200', status_text: 'Success' } },
      ],
      delivery_status: { status_code: '200', status_text: 'Success' },
    });
    const subjects = smtp.mails.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1]?.trim());
    expect(subjects).toEqual(['Test Message Title-mail', 'Test Message Title-mail']);
    expect(smtp.mails.flatMap((m) => m.to).sort()).toEqual(['ops@example.com', 'team@example.com']);
  });

  it('fails with the delivery statuses when a channel does not take it', async () => {
    const failed = await req('POST', `${BASE}/feature/test/nothing`);
    expect(failed).toEqual(
      error(
        404,
        'status_exception',
        '{"event_status_list": [{"config_id":"nothing","config_type":"none","config_name":"invalid-config","email_recipient_status":[],"delivery_status":{"status_code":"404","status_text":"Channel nothing not found"}}]}',
      ),
    );
    const muted = await req('POST', `${BASE}/feature/test/w1`);
    expect(muted.status).toBe(423);
    expect(JSON.parse(muted.json.error.reason as string).event_status_list[0].delivery_status).toEqual({ status_code: 'LOCKED', status_text: 'The channel is muted' });
    await req('POST', `${BASE}/configs`, { config_id: 'down', config: { name: 'Down', config_type: 'slack', slack: { url: `${hooks.url}/down` } } });
    const down = await req('POST', `${BASE}/feature/test/down`);
    expect(down.status).toBe(500);
    expect(JSON.parse(down.json.error.reason as string).event_status_list[0].delivery_status).toEqual({
      status_code: '500',
      status_text: 'Failed to send webhook message Failed: nope',
    });
    const sns = await req('POST', `${BASE}/feature/test/s1`);
    expect(sns.status).toBe(424);
    expect(JSON.parse(sns.json.error.reason as string).event_status_list[0].delivery_status.status_text).toMatch(/^Failed to send SNS message: Quarry does not deliver to AWS SNS/);
    const account = await req('POST', `${BASE}/feature/test/acct`);
    expect(JSON.parse(account.json.error.reason as string).event_status_list[0].delivery_status).toEqual({ status_code: 'NOT_FOUND', status_text: 'Channel not found' });
    await req('POST', `${BASE}/configs`, {
      config_id: 'ghost',
      config: { name: 'G', config_type: 'email', email: { email_account_id: 'acct', recipient_list: [{ recipient: 'ghost@example.com' }, { recipient: 'ops@example.com' }] } },
    });
    const partial = await req('POST', `${BASE}/feature/test/ghost`);
    expect(partial.status).toBe(207);
    const status = JSON.parse(partial.json.error.reason as string).event_status_list[0];
    expect(status.delivery_status).toEqual({ status_code: '207', status_text: 'Errors' });
    expect(status.email_recipient_status[0].delivery_status).toEqual({
      status_code: '502',
      status_text: 'sendEmail Error, status:Invalid Addresses; nested exception is: 550 5.1.1 <ghost@example.com>: user unknown',
    });
  });
});
