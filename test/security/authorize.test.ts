// Authentication domains and their order, and what roles let a user do: cluster permissions,
// index permissions per index expression, and the items inside bulk, multi-get and multi-search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, basic, bcrypt, securedApp, type SecuredApp } from '../support/secured-app';
import { loadConfig } from '../../src/config';
import { prepareSecurity } from '../../src/security/security';

const ADMIN = basic('admin', ADMIN_PASSWORD);
const ALICE = basic('alice', 'alice-pw');

const users = `
alice:
  hash: "${bcrypt('alice-pw')}"
  backend_roles: [team]
`;
const roles = `
own_and_logs:
  cluster_permissions: [cluster_composite_ops]
  index_permissions:
    - index_patterns: ["logs-*", "\${user.name}-*"]
      allowed_actions: [crud, create_index, "indices:admin/refresh"]
`;
const mapping = `
all_access: { backend_roles: [admin] }
own_and_logs: { backend_roles: [team] }
`;

type Res = { status: number; text: string; body: any; headers: Record<string, unknown> };

async function call(app: SecuredApp, method: string, url: string, auth: string | undefined, body?: string, type = 'application/json'): Promise<Res> {
  const res = await app.app.fastify.inject({
    method: method as 'GET',
    url,
    headers: { ...(auth === undefined ? {} : { authorization: auth }), ...(body === undefined ? {} : { 'content-type': type }) },
    ...(body === undefined ? {} : { payload: body }),
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, text: res.body, body: parsed, headers: res.headers };
}

describe('authentication', () => {
  let s: SecuredApp;
  beforeAll(async () => {
    s = await securedApp({ 'internal_users.yml': users });
  });
  afterAll(async () => {
    await s.close();
  });

  it('challenges a request without credentials, as the basic domain does', async () => {
    const r = await call(s, 'GET', '/', undefined);
    expect(r.status).toBe(401);
    expect(r.text).toBe('Unauthorized');
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.headers['www-authenticate']).toBe('Basic realm="OpenSearch Security"');
  });

  it('answers the security health check without credentials', async () => {
    const r = await call(s, 'GET', '/_plugins/_security/health', undefined);
    expect(r).toMatchObject({ status: 200, body: { message: null, mode: 'strict', status: 'UP' } });
  });

  it('refuses a wrong password and an unknown user alike, and takes the right ones', async () => {
    for (const auth of [basic('alice', 'nope'), basic('mallory', 'alice-pw'), basic('alice', ''), 'Basic !!!']) {
      const r = await call(s, 'GET', '/', auth);
      expect(r.status, auth).toBe(401);
      expect(r.text).toBe('Unauthorized');
    }
    expect((await call(s, 'GET', '/', ADMIN)).status).toBe(200);
    const who = await call(s, 'GET', '/_plugins/_security/authinfo', ALICE);
    expect(who.body).toMatchObject({ user_name: 'alice', backend_roles: ['team'], roles: [] });
    // a verified password is remembered: the same credentials again, and a wrong one still fails
    expect((await call(s, 'GET', '/_plugins/_security/authinfo', ALICE)).status).toBe(200);
    expect((await call(s, 'GET', '/', basic('alice', 'alice-pw!'))).status).toBe(401);
  });
});

describe('domain order', () => {
  it('a key sent to a node whose API-key domain comes after basic meets the basic challenge', async () => {
    const config = `
config:
  dynamic:
    authc:
      basic_internal_auth_domain:
        http_enabled: true
        order: 4
        http_authenticator: { type: basic, challenge: true }
        authentication_backend: { type: intern }
      apikey_auth_domain:
        http_enabled: true
        order: 5
        http_authenticator: { type: apikey, challenge: false }
        authentication_backend: { type: noop }
`;
    const s = await securedApp({ 'config.yml': config });
    try {
      const key = (await call(s, 'PUT', '/_plugins/_security/api/apikey', ADMIN, '{"name":"k"}')).body.api_key as string;
      const r = await call(s, 'GET', '/', `ApiKey ${key}`);
      expect(r.status).toBe(401);
      expect(r.text).toBe('Unauthorized');
      expect(r.headers['www-authenticate']).toBe('Basic realm="OpenSearch Security"');
    } finally {
      await s.close();
    }
  });

  it('with the API-key domain disabled (the reference configuration), keys do not log in', async () => {
    const config = `
config:
  dynamic:
    authc:
      apikey_auth_domain:
        http_enabled: false
        order: 1
        http_authenticator: { type: apikey, challenge: false }
        authentication_backend: { type: noop }
      basic_internal_auth_domain:
        http_enabled: true
        order: 4
        http_authenticator: { type: basic, challenge: true }
        authentication_backend: { type: intern }
`;
    const s = await securedApp({ 'config.yml': config });
    try {
      const key = (await call(s, 'PUT', '/_plugins/_security/api/apikey', ADMIN, '{"name":"k"}')).body.api_key as string;
      expect((await call(s, 'GET', '/', `ApiKey ${key}`)).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('without a challenging domain, a request with no credentials finally fails', async () => {
    const config = `
config:
  dynamic:
    authc:
      apikey_auth_domain:
        order: 1
        http_authenticator: { type: apikey }
`;
    const s = await securedApp({ 'config.yml': config });
    try {
      const r = await call(s, 'GET', '/', ADMIN);
      expect(r.status).toBe(401);
      expect(r.text).toBe('Authentication finally failed');
      expect(r.headers['www-authenticate']).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('refuses to start on a configuration it cannot honour', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const cases: Array<[string, string, RegExp]> = [
      ['config.yml', 'config: { dynamic: { authc: { jwt: { order: 0, http_authenticator: { type: jwt } } } } }', /authenticator type \[jwt\] is not supported/],
      ['roles.yml', 'r: { index_permissions: [ { index_patterns: ["*"], allowed_actions: [read], dls: "{}" } ] }', /\[dls\] is not supported/],
      ['internal_users.yml', 'u: { hash: plain }', /\[u.hash\] must be a bcrypt hash/],
    ];
    for (const [file, text, message] of cases) {
      const root = mkdtempSync(path.join(tmpdir(), 'quarry-sec-bad-'));
      mkdirSync(path.join(root, 'opensearch-security'));
      writeFileSync(path.join(root, 'opensearch-security', file), text);
      const config = loadConfig({ argv: ['-E', `path.data=${root}/data`, '-E', 'plugins.security.ssl.http.enabled=false', '-E', 'plugins.security.password.hashing.bcrypt.rounds=4'], env: {}, configDir: root });
      await expect(prepareSecurity(config, {})).rejects.toThrow(message);
    }
  });
});

describe('authorization', () => {
  let s: SecuredApp;
  beforeAll(async () => {
    s = await securedApp({ 'internal_users.yml': users, 'roles.yml': roles, 'roles_mapping.yml': mapping });
    for (const index of ['logs-a', 'secret']) expect((await call(s, 'PUT', `/${index}`, ADMIN)).status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
  });

  const denied = (action: string): string => `no permissions for [${action}] and User [name=alice, backend_roles=[team], requestedTenant=null]`;

  it('allows index actions on granted patterns only, with the security plugin\'s 403', async () => {
    expect((await call(s, 'PUT', '/logs-a/_doc/1?refresh=true', ALICE, '{"m":"x"}')).status).toBe(201);
    expect((await call(s, 'GET', '/logs-a/_search', ALICE)).status).toBe(200);
    expect((await call(s, 'GET', '/logs-*/_search', ALICE)).status).toBe(200);
    expect((await call(s, 'PUT', '/alice-notes', ALICE)).status).toBe(200);
    const r = await call(s, 'GET', '/secret/_search', ALICE);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: {
        root_cause: [{ type: 'security_exception', reason: denied('indices:data/read/search') }],
        type: 'security_exception',
        reason: denied('indices:data/read/search'),
      },
      status: 403,
    });
    // all indices, and a wildcard wider than the grant
    expect((await call(s, 'GET', '/_search', ALICE)).body.error.reason).toBe(denied('indices:data/read/search'));
    expect((await call(s, 'GET', '/l*/_search', ALICE)).status).toBe(403);
    expect((await call(s, 'GET', '/logs-a,secret/_search', ALICE)).status).toBe(403);
    expect((await call(s, 'DELETE', '/logs-a', ALICE)).body.error.reason).toBe(denied('indices:admin/delete'));
    expect((await call(s, 'PUT', '/bob-notes', ALICE)).body.error.reason).toBe(denied('indices:admin/create'));
    // cluster actions need cluster permissions
    expect((await call(s, 'GET', '/_cluster/health', ALICE)).body.error.reason).toBe(denied('cluster:monitor/health'));
  });

  it('checks every item of a bulk, a multi-get and a multi-search', async () => {
    const ok = '{"index":{"_index":"logs-a","_id":"2"}}\n{"m":"y"}\n{"delete":{"_index":"logs-a","_id":"9"}}\n';
    expect((await call(s, 'POST', '/_bulk', ALICE, ok, 'application/x-ndjson')).status).toBe(200);
    const bad = '{"index":{"_index":"logs-a"}}\n{"m":"y"}\n{"update":{"_index":"secret","_id":"1"}}\n{"doc":{}}\n';
    const r = await call(s, 'POST', '/_bulk', ALICE, bad, 'application/x-ndjson');
    expect(r.status).toBe(403);
    expect(r.body.error.reason).toBe(denied('indices:data/write/update'));
    // a document that merely mentions another index is not an item
    const quoted = '{"index":{}}\n{"note":"{\\"index\\":{\\"_index\\":\\"secret\\"}}"}\n';
    expect((await call(s, 'POST', '/logs-a/_bulk', ALICE, quoted, 'application/x-ndjson')).status).toBe(200);
    expect((await call(s, 'POST', '/secret/_bulk', ALICE, '{"index":{}}\n{"a":1}\n', 'application/x-ndjson')).body.error.reason).toBe(denied('indices:data/write/index'));

    expect((await call(s, 'POST', '/_mget', ALICE, '{"docs":[{"_index":"logs-a","_id":"1"}]}')).status).toBe(200);
    expect((await call(s, 'POST', '/_mget', ALICE, '{"docs":[{"_index":"logs-a","_id":"1"},{"_index":"secret","_id":"1"}]}')).body.error.reason).toBe(denied('indices:data/read/mget'));

    const ms = '{"index":"logs-a"}\n{"query":{"match_all":{}}}\n';
    expect((await call(s, 'POST', '/_msearch', ALICE, ms, 'application/x-ndjson')).status).toBe(200);
    const msBad = `${ms}{"index":"secret"}\n{"query":{"match_all":{}}}\n`;
    expect((await call(s, 'POST', '/_msearch', ALICE, msBad, 'application/x-ndjson')).body.error.reason).toBe(denied('indices:data/read/search'));
    // a header without an index searches every index
    expect((await call(s, 'POST', '/_msearch', ALICE, '{}\n{"query":{"match_all":{}}}\n', 'application/x-ndjson')).status).toBe(403);
  });

  it('lets the admin do everything but touch a system index', async () => {
    expect((await call(s, 'GET', '/secret/_search', ADMIN)).status).toBe(200);
    expect((await call(s, 'GET', '/_cluster/health', ADMIN)).status).toBe(200);
    const r = await call(s, 'POST', '/.opendistro_security/_bulk', ADMIN, '{"index":{}}\n{"a":1}\n', 'application/x-ndjson');
    expect(r.status).toBe(403);
    expect(r.body.error.reason).toBe('no permissions for [] and User [name=admin, backend_roles=[admin], requestedTenant=null]');
  });
});
