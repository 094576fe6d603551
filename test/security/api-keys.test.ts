// API keys (spec 000) through the real pipeline: creation rules, list/get/revoke, the key as a
// credential (revoked, expired, wrong secret), the feature switch, and the system index.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, basic, bcrypt, securedApp, type SecuredApp } from '../support/secured-app';

const ADMIN = basic('admin', ADMIN_PASSWORD);
const KEYS = '/_plugins/_security/api/apikey';

const files = {
  'internal_users.yml': `
_meta: { type: internalusers, config_version: 2 }
alice:
  hash: "${bcrypt('alice-pw')}"
  backend_roles: [logs_team]
bob:
  hash: "${bcrypt('bob-pw')}"
  backend_roles: []
`,
  'roles.yml': `
logs_reader:
  cluster_permissions: [cluster_composite_ops_ro, "security:apikey/*"]
  index_permissions:
    - index_patterns: ["logs-*"]
      allowed_actions: [read]
logs_writer:
  cluster_permissions: [cluster_composite_ops]
  index_permissions:
    - index_patterns: ["logs-*"]
      allowed_actions: [crud, create_index]
`,
  'roles_mapping.yml': `
all_access: { backend_roles: [admin] }
logs_reader: { backend_roles: [logs_team] }
logs_writer: { users: [alice] }
`,
};

let s: SecuredApp;
beforeAll(async () => {
  s = await securedApp(files);
});
afterAll(async () => {
  await s.close();
});

async function call(method: string, url: string, auth: string | undefined, body?: unknown): Promise<{ status: number; body: any; text: string; headers: Record<string, unknown> }> {
  const res = await s.app.fastify.inject({
    method: method as 'GET',
    url,
    headers: { ...(auth === undefined ? {} : { authorization: auth }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, body: parsed, text: res.body, headers: res.headers };
}

const apiKey = (token: string): string => `ApiKey ${token}`;

describe('API key management', () => {
  it('creates a key whose secret is shown once and never stored', async () => {
    const before = Date.now();
    const r = await call('PUT', KEYS, ADMIN, { name: 'ci', security_roles: ['all_access'], expiration: '2d' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['id', 'name', 'api_key', 'expiration_at']);
    expect(r.body.name).toBe('ci');
    const decoded = Buffer.from(r.body.api_key, 'base64').toString('utf8');
    const [id, secret] = decoded.split(':') as [string, string];
    expect(id).toBe(r.body.id);
    // 32 random bytes
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(r.body.expiration_at).toBeGreaterThanOrEqual(before + 2 * 86400_000);
    expect(r.body.expiration_at).toBeLessThanOrEqual(Date.now() + 2 * 86400_000);

    const listed = await call('GET', KEYS, ADMIN);
    const meta = listed.body.api_keys.find((k: { id: string }) => k.id === id);
    expect(Object.keys(meta)).toEqual(['id', 'name', 'backend_roles', 'security_roles', 'creator', 'created_at', 'expiration_at', 'invalidated']);
    expect(meta).toMatchObject({ name: 'ci', backend_roles: [], security_roles: ['all_access'], creator: 'admin', invalidated: false });
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('$2');

    const one = await call('GET', `${KEYS}/${id}`, ADMIN);
    expect(one.body).toEqual({ api_keys: [meta] });
    expect(one.text).not.toContain('hash');

    // on disk: a bcrypt hash, not the secret
    const stored = readFileSync(path.join(s.dir, 'data', '_system', '.neutral_security_api_keys.json'), 'utf8');
    expect(stored).not.toContain(secret);
    expect(stored).toMatch(/"hash":"\$2b\$04\$/);
  });

  it('authenticates requests with the key, as its creator with the key\'s roles, until revoked', async () => {
    const created = (await call('PUT', KEYS, ADMIN, { name: 'reader', roles: ['all_access'] })).body;
    const who = await call('GET', '/_plugins/_security/authinfo', apiKey(created.api_key));
    expect(who.body).toMatchObject({ user_name: 'admin', roles: ['all_access'], api_key_id: created.id });
    // the scheme is case-insensitive
    expect((await call('GET', '/', `apikey ${created.api_key}`)).status).toBe(200);
    expect((await call('GET', '/', `APIKEY ${created.api_key}`)).status).toBe(200);

    const revoked = await call('DELETE', `${KEYS}/${created.id}`, ADMIN);
    expect(revoked).toMatchObject({ status: 200, body: { id: created.id, invalidated: true } });
    const after = await call('GET', '/', apiKey(created.api_key));
    expect(after.status).toBe(401);
    expect(after.body.error.reason).toBe(`API key [${created.id}] has been invalidated`);
    // the record stays, marked
    expect((await call('GET', `${KEYS}/${created.id}`, ADMIN)).body.api_keys[0].invalidated).toBe(true);
    // revoking again is still an answer, not an error
    expect((await call('DELETE', `${KEYS}/${created.id}`, ADMIN)).status).toBe(200);
  });

  it('refuses a wrong secret, an unknown id, an expired key and a malformed token', async () => {
    const created = (await call('PUT', KEYS, ADMIN, { name: 'short', expiration: '1ms' })).body;
    const id = created.id as string;
    const wrong = Buffer.from(`${id}:not-the-secret`).toString('base64');
    const r1 = await call('GET', '/', apiKey(wrong));
    expect(r1.status).toBe(401);
    expect(r1.body.error).toMatchObject({ type: 'security_exception', reason: 'invalid API key credentials' });
    expect(r1.headers['www-authenticate']).toBe('Basic realm="OpenSearch Security"');
    const unknown = Buffer.from('nosuchid:whatever').toString('base64');
    expect((await call('GET', '/', apiKey(unknown))).body.error.reason).toBe('invalid API key credentials');
    await new Promise((r) => setTimeout(r, 5));
    const expired = await call('GET', '/', apiKey(created.api_key));
    expect(expired.status).toBe(401);
    expect(expired.body.error.reason).toBe(`API key [${id}] has expired`);
    expect((await call('GET', '/', 'ApiKey !!!')).status).toBe(401);
  });

  it('applies the default expiration, clamps to the maximum, and checks the body', async () => {
    const dflt = (await call('PUT', KEYS, ADMIN, { name: 'd' })).body;
    expect(dflt.expiration_at - Date.now()).toBeGreaterThan(30 * 86400_000 - 60_000);
    expect(dflt.expiration_at - Date.now()).toBeLessThanOrEqual(30 * 86400_000);
    const long = (await call('PUT', KEYS, ADMIN, { name: 'long', expiration: '1000d' })).body;
    expect(long.expiration_at - Date.now()).toBeLessThanOrEqual(365 * 86400_000);
    expect(long.expiration_at - Date.now()).toBeGreaterThan(365 * 86400_000 - 60_000);

    const cases: Array<[unknown, string]> = [
      [{}, '[name] is required and must be a non-empty string'],
      [{ name: 'x', colour: 'red' }, 'unknown field [colour] in an API key request'],
      [{ name: 'x', security_roles: 'all_access' }, '[security_roles] must be an array of strings'],
      [{ name: 'x', roles: [], security_roles: [] }, '[security_roles] and its alias [roles] cannot both be given'],
      [{ name: 'x', expiration: 30 }, '[expiration] must be a duration such as [30d]'],
      [{ name: 'x', expiration: '0d' }, '[expiration] must be a positive duration, got [0d]'],
      [{ name: 'x', expiration: 'soon' }, 'failed to parse setting [expiration] with value [soon] as a time value: unit is missing or unrecognized'],
    ];
    for (const [body, reason] of cases) {
      const r = await call('PUT', KEYS, ADMIN, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.reason).toBe(reason);
    }
    const malformed = await call('PUT', KEYS, ADMIN, '{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('parse_exception');
    expect((await call('PUT', `${KEYS}?pretty=true&colour=red`, ADMIN, { name: 'x' })).status).toBe(400);
  });

  it('answers 404 for an unknown id on get and revoke', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await call(method, `${KEYS}/missing`, ADMIN);
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ type: 'resource_not_found_exception', reason: 'API key [missing] not found' });
    }
  });

  it('keeps a key within its creator: asked-for roles must be held, none asked means the creator\'s', async () => {
    const alice = basic('alice', 'alice-pw');
    const own = await call('PUT', KEYS, alice, { name: 'mine' });
    expect(own.status).toBe(200);
    const meta = (await call('GET', `${KEYS}/${own.body.id}`, ADMIN)).body.api_keys[0];
    expect(meta).toMatchObject({ creator: 'alice', backend_roles: ['logs_team'], security_roles: ['logs_reader', 'logs_writer'] });

    const tooMuch = await call('PUT', KEYS, alice, { name: 'greedy', security_roles: ['all_access'] });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body.error).toEqual({
      root_cause: [expect.objectContaining({ type: 'security_exception' })],
      type: 'security_exception',
      reason: 'no permissions to grant [security_roles] [all_access] to an API key: User [name=alice, backend_roles=[logs_team], requestedTenant=null] does not hold them',
    });
    const backend = await call('PUT', KEYS, alice, { name: 'greedy', backend_roles: ['admin'] });
    expect(backend.status).toBe(403);
    expect(backend.body.error.reason).toContain('[backend_roles] [admin]');

    // a narrower key works, and only as far as its role reaches
    const narrow = (await call('PUT', KEYS, alice, { name: 'ro', security_roles: ['logs_reader'] })).body;
    expect((await call('PUT', '/logs-1', alice)).status).toBe(200);
    expect((await call('GET', '/logs-1/_search', apiKey(narrow.api_key))).status).toBe(200);
    const write = await call('PUT', '/logs-1/_doc/1', apiKey(narrow.api_key), { a: 1 });
    expect(write.status).toBe(403);
    expect(write.body.error.reason).toBe('no permissions for [indices:data/write/index] and User [name=alice, backend_roles=[], requestedTenant=null]');
  });

  it('needs each route\'s own cluster permission', async () => {
    const bob = basic('bob', 'bob-pw');
    const r = await call('GET', KEYS, bob);
    expect(r.status).toBe(403);
    expect(r.body.error.reason).toBe('no permissions for [security:apikey/list] and User [name=bob, backend_roles=[], requestedTenant=null]');
    expect((await call('PUT', KEYS, bob, { name: 'x' })).body.error.reason).toContain('[security:apikey/create]');
    expect((await call('GET', `${KEYS}/x`, bob)).body.error.reason).toContain('[security:apikey/get]');
    expect((await call('DELETE', `${KEYS}/x`, bob)).body.error.reason).toContain('[security:apikey/invalidate]');
  });

  it('keeps the key store out of the REST and index APIs', async () => {
    for (const [method, url] of [
      ['PUT', '/.neutral_security_api_keys'],
      ['GET', '/.neutral_security_api_keys/_search'],
      ['GET', '/.neutral_security_api_keys'],
    ] as const) {
      const r = await call(method, url, ADMIN);
      expect(r.status, url).toBe(403);
      expect(r.body.error.reason).toBe('no permissions for [] and User [name=admin, backend_roles=[admin], requestedTenant=null]');
    }
    const bulk = await call('POST', '/_bulk', ADMIN, '{"index":{"_index":".neutral_security_api_keys"}}\n{"a":1}\n');
    expect(bulk.status).toBe(403);
  });
});

describe('the API key switch', () => {
  it('answers 400 on every management route and stops keys authenticating', async () => {
    const off = await securedApp({}, { 'plugins.security.apikey.enabled': 'false' });
    try {
      for (const [method, url] of [
        ['PUT', KEYS],
        ['GET', KEYS],
        ['GET', `${KEYS}/x`],
        ['DELETE', `${KEYS}/x`],
      ] as const) {
        const res = await off.app.fastify.inject({ method, url, headers: { authorization: ADMIN, 'content-type': 'application/json' }, ...(method === 'PUT' ? { payload: '{"name":"x"}' } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(JSON.parse(res.body).error.reason).toBe('The API key feature is disabled on this node ([plugins.security.apikey.enabled] is false)');
      }
      const token = Buffer.from('a:b').toString('base64');
      const res = await off.app.fastify.inject({ method: 'GET', url: '/', headers: { authorization: `ApiKey ${token}` } });
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('Unauthorized');
    } finally {
      await off.close();
    }
  });
});
