// End to end with security on, as `npm start` runs a node: HTTPS with the node's own
// certificates, the official client logging in with basic auth and with an API key, the admin
// client certificate, and keys (and their revocation) surviving a kill -9.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, errors } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

const PASSWORD = 'Quarry-e2e-admin-1';
let server: QuarryServer;
let ca: string;
const clients: Client[] = [];

function client(auth: Record<string, unknown>, tls: Record<string, unknown> = {}): Client {
  const c = new Client({ node: server.url, ssl: { ca, ...tls }, ...auth });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startQuarry({
    settings: { 'plugins.security.disabled': 'false', 'plugins.security.password.hashing.bcrypt.rounds': '10' },
    env: { OPENSEARCH_INITIAL_ADMIN_PASSWORD: PASSWORD },
  });
  ca = readFileSync(path.join(server.dataDir, 'certs', 'root-ca.pem'), 'utf8');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await cleanupServers();
});

async function status(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (e) {
    if (e instanceof errors.ResponseError) return e.statusCode ?? 0;
    throw e;
  }
}

describe('security over HTTPS', () => {
  it('serves HTTPS with a certificate the generated CA signed, and says so once at start', async () => {
    expect(server.url.startsWith('https://')).toBe(true);
    expect(server.output()).toContain('security: user [admin] created with the password in OPENSEARCH_INITIAL_ADMIN_PASSWORD');
    expect(server.output()).toContain('listening on https://');
    // without the CA, the node's certificate is not trusted
    const untrusted = new Client({ node: server.url, auth: { username: 'admin', password: PASSWORD } });
    clients.push(untrusted);
    await expect(untrusted.info()).rejects.toThrow(/certificate/);
  });

  it('takes basic auth from the official client and challenges without it', async () => {
    const admin = client({ auth: { username: 'admin', password: PASSWORD } });
    expect((await admin.info()).body.version.number).toBe('0.13.0');
    expect(await status(client({}).info())).toBe(401);
    expect(await status(client({ auth: { username: 'admin', password: 'wrong' } }).info())).toBe(401);
  });

  it('takes the admin client certificate as the super admin', async () => {
    const dir = path.join(server.dataDir, 'certs');
    const admin = client({}, { cert: readFileSync(path.join(dir, 'admin.pem'), 'utf8'), key: readFileSync(path.join(dir, 'admin-key.pem'), 'utf8') });
    const who = await admin.transport.request({ method: 'GET', path: '/_plugins/_security/authinfo' });
    expect(who.body).toMatchObject({ user_name: 'CN=admin,OU=client,O=quarry', principal: 'CN=admin,OU=client,O=quarry' });
    // the super admin may create a key with any roles (no subset rule)
    const key = await admin.transport.request({ method: 'PUT', path: '/_plugins/_security/api/apikey', body: { name: 'by-cert', security_roles: ['readall'] } });
    expect(key.statusCode).toBe(200);
  });

  it('logs in with an API key, which survives a kill -9, and so does its revocation', async () => {
    const admin = client({ auth: { username: 'admin', password: PASSWORD } });
    await admin.indices.create({ index: 'books' });
    await admin.index({ index: 'books', id: '1', body: { title: 'Dune' }, refresh: true });
    // admin holds all_access, not readall, so only the certificate may mint a readall key (rule 1)
    const refused = admin.transport.request({ method: 'PUT', path: '/_plugins/_security/api/apikey', body: { name: 'kept', security_roles: ['readall'] } });
    expect(await status(refused)).toBe(403);
    const dir = path.join(server.dataDir, 'certs');
    const byCert = client({}, { cert: readFileSync(path.join(dir, 'admin.pem'), 'utf8'), key: readFileSync(path.join(dir, 'admin-key.pem'), 'utf8') });
    const kept = (await byCert.transport.request({ method: 'PUT', path: '/_plugins/_security/api/apikey', body: { name: 'kept', security_roles: ['readall'] } })).body as { id: string; api_key: string };
    const dropped = (await admin.transport.request({ method: 'PUT', path: '/_plugins/_security/api/apikey', body: { name: 'dropped' } })).body as { id: string; api_key: string };
    const asKey = (token: string): Client => client({ headers: { authorization: `ApiKey ${token}` } });
    expect((await asKey(kept.api_key).search({ index: 'books' })).body.hits.total.value).toBe(1);
    // readall reads but does not write
    expect(await status(asKey(kept.api_key).index({ index: 'books', body: { title: 'x' } }))).toBe(403);
    await admin.transport.request({ method: 'DELETE', path: `/_plugins/_security/api/apikey/${dropped.id}` });

    await server.restart('kill9');
    ca = readFileSync(path.join(server.dataDir, 'certs', 'root-ca.pem'), 'utf8');
    expect(server.output()).not.toMatch(/--- start #2[\s\S]*created with/);
    expect((await asKey(kept.api_key).search({ index: 'books' })).body.hits.total.value).toBe(1);
    expect(await status(asKey(dropped.api_key).info())).toBe(401);
    const list = (await client({ auth: { username: 'admin', password: PASSWORD } }).transport.request({ method: 'GET', path: '/_plugins/_security/api/apikey' })).body as {
      api_keys: Array<{ name: string; invalidated: boolean }>;
    };
    expect(list.api_keys.map((k) => [k.name, k.invalidated])).toEqual([
      ['by-cert', false],
      ['kept', false],
      ['dropped', true],
    ]);
  });

  it('checks an unknown key id with bcrypt too, so timing does not tell which ids exist', async () => {
    const admin = client({ auth: { username: 'admin', password: PASSWORD } });
    const key = (await admin.transport.request({ method: 'PUT', path: '/_plugins/_security/api/apikey', body: { name: 'timing' } })).body as { id: string };
    const time = async (token: string): Promise<number> => {
      const t = performance.now();
      expect(await status(client({ headers: { authorization: `ApiKey ${token}` } }).info())).toBe(401);
      return performance.now() - t;
    };
    // 10 rounds of bcrypt take tens of milliseconds; a lookup alone takes well under one.
    const known = await time(Buffer.from(`${key.id}:wrong-secret`).toString('base64'));
    const unknown = await time(Buffer.from('no-such-key-id:wrong-secret').toString('base64'));
    expect(known).toBeGreaterThan(20);
    expect(unknown).toBeGreaterThan(20);
  });
});
