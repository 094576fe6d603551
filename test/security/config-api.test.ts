// The security REST API: users, roles, role mappings and action groups changed at run time, in
// the plugin's own answer shape, effective on the next request, kept across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, basic, securedApp, type SecuredApp } from '../support/secured-app';

const ADMIN = basic('admin', ADMIN_PASSWORD);
const API = '/_plugins/_security/api';
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-secapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(s: SecuredApp, method: string, url: string, auth: string | undefined, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await s.app.fastify.inject({
    method: method as 'GET',
    url,
    headers: { ...(auth === undefined ? {} : { authorization: auth }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  // a failed login answers in text (`Unauthorized`)
  return { status: res.statusCode, body: res.headers['content-type']?.toString().startsWith('text/') ? res.body : JSON.parse(res.body) };
}

describe('security REST API', () => {
  it('creates, changes and deletes users, effective on the next request', async () => {
    const s = await securedApp({}, {}, dir);
    try {
      expect(await call(s, 'PUT', `${API}/internalusers/bob`, ADMIN, { password: 'bob-pw-1', backend_roles: ['team'] })).toEqual({ status: 201, body: { status: 'CREATED', message: "'bob' created." } });
      expect((await call(s, 'GET', '/_plugins/_security/authinfo', basic('bob', 'bob-pw-1'))).body).toMatchObject({ user_name: 'bob', backend_roles: ['team'], roles: [] });
      expect(await call(s, 'GET', `${API}/internalusers/bob`, ADMIN)).toEqual({
        status: 200,
        body: { bob: { hash: '', reserved: false, hidden: false, backend_roles: ['team'], attributes: {}, opendistro_security_roles: [], static: false } },
      });
      // a new password: the old one stops at once, though it was remembered
      expect((await call(s, 'PUT', `${API}/internalusers/bob`, ADMIN, { password: 'bob-pw-2', backend_roles: ['team'] })).body).toEqual({ status: 'OK', message: "'bob' updated." });
      expect((await call(s, 'GET', '/', basic('bob', 'bob-pw-1'))).status).toBe(401);
      // no password again: the hash is kept
      expect((await call(s, 'PUT', `${API}/internalusers/bob`, ADMIN, { backend_roles: ['team', 'ops'] })).status).toBe(200);
      expect((await call(s, 'GET', '/_plugins/_security/authinfo', basic('bob', 'bob-pw-2'))).body.backend_roles).toEqual(['team', 'ops']);

      // a role and its mapping: bob may search logs-* from the next request on
      expect((await call(s, 'PUT', '/logs-1', ADMIN)).status).toBe(200);
      expect((await call(s, 'GET', '/logs-1/_search', basic('bob', 'bob-pw-2'))).status).toBe(403);
      const role = { cluster_permissions: ['cluster_composite_ops_ro'], index_permissions: [{ index_patterns: ['logs-*'], allowed_actions: ['read'] }] };
      expect((await call(s, 'PUT', `${API}/roles/logs_reader`, ADMIN, role)).status).toBe(201);
      expect((await call(s, 'PUT', `${API}/rolesmapping/logs_reader`, ADMIN, { backend_roles: ['ops'] })).status).toBe(201);
      expect((await call(s, 'GET', '/logs-1/_search', basic('bob', 'bob-pw-2'))).status).toBe(200);
      expect((await call(s, 'GET', `${API}/roles/logs_reader`, ADMIN)).body).toEqual({
        logs_reader: {
          reserved: false,
          hidden: false,
          cluster_permissions: ['cluster_composite_ops_ro'],
          index_permissions: [{ fls: [], masked_fields: [], index_patterns: ['logs-*'], allowed_actions: ['read'] }],
          tenant_permissions: [],
          static: false,
        },
      });
      expect((await call(s, 'GET', `${API}/rolesmapping/logs_reader`, ADMIN)).body).toEqual({
        logs_reader: { hosts: [], users: [], reserved: false, hidden: false, backend_roles: ['ops'], and_backend_roles: [] },
      });
      const groups = (await call(s, 'GET', `${API}/actiongroups`, ADMIN)).body;
      expect(groups.read).toMatchObject({ reserved: true, static: true, allowed_actions: expect.arrayContaining(['indices:data/read*']) });
      expect((await call(s, 'GET', `${API}/roles`, ADMIN)).body.all_access).toMatchObject({ reserved: true, static: true, cluster_permissions: ['*'] });
      expect(Object.keys((await call(s, 'GET', `${API}/internalusers`, ADMIN)).body).sort()).toEqual(['admin', 'bob']);
    } finally {
      await s.close();
    }
  });

  it('keeps the changes across a restart, and deletes', async () => {
    const s = await securedApp({}, {}, dir);
    try {
      expect((await call(s, 'GET', '/logs-1/_search', basic('bob', 'bob-pw-2'))).status).toBe(200);
      expect(await call(s, 'DELETE', `${API}/rolesmapping/logs_reader`, ADMIN)).toEqual({ status: 200, body: { status: 'OK', message: "'logs_reader' deleted." } });
      expect((await call(s, 'GET', '/logs-1/_search', basic('bob', 'bob-pw-2'))).status).toBe(403);
      expect((await call(s, 'DELETE', `${API}/internalusers/bob`, ADMIN)).status).toBe(200);
      expect((await call(s, 'GET', '/', basic('bob', 'bob-pw-2'))).status).toBe(401);
      expect(await call(s, 'DELETE', `${API}/internalusers/bob`, ADMIN)).toEqual({ status: 404, body: { status: 'NOT_FOUND', message: "Resource 'bob' not found." } });
      expect(await call(s, 'GET', `${API}/roles/nope`, ADMIN)).toEqual({ status: 404, body: { status: 'NOT_FOUND', message: "Resource 'nope' not found." } });
    } finally {
      await s.close();
    }
  });

  it('refuses reserved entries, unknown fields, what the configuration cannot hold, and callers without the permission', async () => {
    const s = await securedApp({}, {}, dir);
    try {
      expect(await call(s, 'PUT', `${API}/roles/all_access`, ADMIN, { cluster_permissions: [] })).toEqual({ status: 403, body: { status: 'FORBIDDEN', message: "Resource 'all_access' is reserved." } });
      expect((await call(s, 'DELETE', `${API}/actiongroups/read`, ADMIN)).status).toBe(403);
      expect((await call(s, 'DELETE', `${API}/internalusers/admin`, ADMIN)).status).toBe(403);
      expect(await call(s, 'PUT', `${API}/internalusers/carol`, ADMIN, { password: 'x', colour: 'red' })).toEqual({
        status: 400,
        body: { status: 'error', reason: 'Invalid configuration', invalid_keys: { keys: 'colour' } },
      });
      expect(await call(s, 'PUT', `${API}/internalusers/carol`, ADMIN, { backend_roles: [] })).toEqual({
        status: 400,
        body: { status: 'BAD_REQUEST', message: "Please specify either 'hash' or 'password' when creating a new internal user." },
      });
      const dls = await call(s, 'PUT', `${API}/roles/r`, ADMIN, { index_permissions: [{ index_patterns: ['*'], allowed_actions: ['read'], dls: '{}' }] });
      expect(dls.status).toBe(400);
      expect(dls.body.message).toContain('[dls] is not supported by Quarry');
      expect((await call(s, 'GET', `${API}/roles/r`, ADMIN)).status).toBe(404);
      // an ordinary user may not change security
      expect((await call(s, 'PUT', `${API}/internalusers/carol`, ADMIN, { password: 'carol-pw-1' })).status).toBe(201);
      const r = await call(s, 'PUT', `${API}/internalusers/carol`, basic('carol', 'carol-pw-1'), { password: 'x' });
      expect(r.status).toBe(403);
      expect(r.body.error.reason).toBe('no permissions for [restapi:admin/internalusers/put] and User [name=carol, backend_roles=[], requestedTenant=null]');
    } finally {
      await s.close();
    }
  });
});
