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
  it('patches one entry or the whole collection, all or nothing', async () => {
    const s = await securedApp({}, {}, dir);
    try {
      const patchCall = (url: string, ops: unknown, auth = ADMIN) => call(s, 'PATCH', url, auth, ops);
      expect((await call(s, 'PUT', `${API}/internalusers/dave`, ADMIN, { password: 'dave-pw-1', backend_roles: ['a'] })).status).toBe(201);
      // one entry: its fields by pointer; the hash is kept, the password still works
      expect(await patchCall(`${API}/internalusers/dave`, [{ op: 'add', path: '/backend_roles/-', value: 'b' }, { op: 'add', path: '/attributes', value: { team: 'x' } }])).toEqual({
        status: 200,
        body: { status: 'OK', message: "'dave' updated." },
      });
      expect((await call(s, 'GET', '/_plugins/_security/authinfo', basic('dave', 'dave-pw-1'))).body).toMatchObject({ backend_roles: ['a', 'b'] });
      expect((await call(s, 'GET', `${API}/internalusers/dave`, ADMIN)).body.dave.attributes).toEqual({ team: 'x' });
      // a new password through a patch is hashed, and the old one stops
      expect((await patchCall(`${API}/internalusers/dave`, [{ op: 'add', path: '/password', value: 'dave-pw-2' }])).status).toBe(200);
      expect((await call(s, 'GET', '/_plugins/_security/authinfo', basic('dave', 'dave-pw-1'))).status).toBe(401);
      expect((await call(s, 'GET', '/_plugins/_security/authinfo', basic('dave', 'dave-pw-2'))).status).toBe(200);
      expect((await call(s, 'GET', `${API}/internalusers/dave`, ADMIN)).body.dave.hash).toBe('');

      // the collection: create one, change one, delete one in a single patch
      expect((await call(s, 'PUT', `${API}/roles/old_role`, ADMIN, { cluster_permissions: ['cluster_monitor'] })).status).toBe(201);
      const ops = [
        { op: 'add', path: '/new_role', value: { cluster_permissions: ['cluster_composite_ops_ro'] } },
        { op: 'replace', path: '/old_role/cluster_permissions', value: ['cluster_all'] },
      ];
      expect(await patchCall(`${API}/roles`, ops)).toEqual({ status: 200, body: { status: 'OK', message: 'Resource updated.' } });
      expect((await call(s, 'GET', `${API}/roles/new_role`, ADMIN)).body.new_role.cluster_permissions).toEqual(['cluster_composite_ops_ro']);
      expect((await call(s, 'GET', `${API}/roles/old_role`, ADMIN)).body.old_role.cluster_permissions).toEqual(['cluster_all']);
      expect((await patchCall(`${API}/roles`, [{ op: 'remove', path: '/old_role' }])).status).toBe(200);
      expect((await call(s, 'GET', `${API}/roles/old_role`, ADMIN)).status).toBe(404);

      // all or nothing: a refused entry keeps the valid one in the same patch out too
      const mixed = await patchCall(`${API}/roles`, [
        { op: 'add', path: '/r_ok', value: { cluster_permissions: [] } },
        { op: 'add', path: '/r_bad', value: { colour: 'red' } },
      ]);
      expect(mixed).toEqual({ status: 400, body: { status: 'error', reason: 'Invalid configuration', invalid_keys: { keys: 'colour' } } });
      expect((await call(s, 'GET', `${API}/roles/r_ok`, ADMIN)).status).toBe(404);

      // refusals: reserved entries, a missing entry, bad patch documents, callers without the permission
      expect(await patchCall(`${API}/roles/all_access`, [{ op: 'replace', path: '/cluster_permissions', value: [] }])).toEqual({ status: 403, body: { status: 'FORBIDDEN', message: "Resource 'all_access' is reserved." } });
      expect((await patchCall(`${API}/roles`, [{ op: 'remove', path: '/all_access' }])).status).toBe(403);
      expect((await patchCall(`${API}/internalusers`, [{ op: 'remove', path: '/admin' }])).status).toBe(403);
      expect(await patchCall(`${API}/roles/nope`, [{ op: 'add', path: '/description', value: 'x' }])).toEqual({ status: 404, body: { status: 'NOT_FOUND', message: "Resource 'nope' not found." } });
      expect(await patchCall(`${API}/roles`, { op: 'add' })).toEqual({ status: 400, body: { status: 'BAD_REQUEST', message: 'Wrong request body' } });
      expect(await patchCall(`${API}/roles`, [])).toEqual({ status: 400, body: { status: 'BAD_REQUEST', message: 'Wrong request body' } });
      expect(await patchCall(`${API}/roles`, [{ op: 'move', from: '/a', path: '/b' }])).toEqual({
        status: 400,
        body: { status: 'BAD_REQUEST', message: 'Unsupported patch operation: move. Supported are: add,replace,remove' },
      });
      expect(await patchCall(`${API}/roles/new_role`, [{ op: 'remove', path: '/description' }])).toEqual({
        status: 400,
        body: { status: 'BAD_REQUEST', message: '[REMOVE Operation] Missing field "description" at root' },
      });
      const denied = await patchCall(`${API}/roles/new_role`, [{ op: 'add', path: '/description', value: 'x' }], basic('dave', 'dave-pw-2'));
      expect(denied.status).toBe(403);
      expect(denied.body.error.reason).toContain('no permissions for [restapi:admin/roles/patch]');
    } finally {
      await s.close();
    }
  });
});
