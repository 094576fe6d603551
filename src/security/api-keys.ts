// API keys (spec 000): revocable tokens the node issues and verifies itself. A key is an id and a
// 32-byte random secret; the client presents `ApiKey base64(id:secret)`. Only a bcrypt hash of
// the secret is kept, in the system index `plugins.security.apikey.index_name`, so the id
// (a bcrypt hash is salted and cannot be looked up) finds the record and bcrypt checks the secret.
// Verified secrets are remembered (as a digest) so a key costs one bcrypt per cache period, not
// one per request; revoking a key forgets it at once.
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/bcrypt';
import { apiKeyNotFound, apiKeyRejected, apiKeyRolesNotHeld, illegalArgument } from '../http/error-table';
import { SystemIndex } from '../system/system-index';
import { parseTimeValue, timeValueMillis } from '../config/units';
import type { SecuritySettings } from '../config';
import type { SecurityModel } from './security-config';
import { makePrincipal, mappedRoles, type Principal } from './principal';
import { VerifiedSecrets } from './verified-secrets';

/** What the system index keeps of a key. */
export interface ApiKeyRecord {
  readonly name: string;
  readonly hash: string;
  readonly backend_roles: readonly string[];
  readonly security_roles: readonly string[];
  readonly creator: string;
  readonly created_at: number;
  readonly expiration_at: number;
  readonly invalidated: boolean;
}

/** The metadata a list or get shows: never the hash or the secret. */
export function metadataOf(id: string, r: ApiKeyRecord): Record<string, unknown> {
  return {
    id,
    name: r.name,
    backend_roles: r.backend_roles,
    security_roles: r.security_roles,
    creator: r.creator,
    created_at: r.created_at,
    expiration_at: r.expiration_at,
    invalidated: r.invalidated,
  };
}

export interface CreateRequest {
  readonly name: string;
  readonly securityRoles: readonly string[] | undefined;
  readonly backendRoles: readonly string[] | undefined;
  readonly expiration: string | undefined;
}

const FIELDS = new Set(['name', 'security_roles', 'roles', 'backend_roles', 'expiration']);

function stringList(body: Record<string, unknown>, field: string): string[] | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw illegalArgument(`[${field}] must be an array of strings`);
  return v as string[];
}

/** Reads a create request's body (already JSON-parsed), refusing what it does not know. */
export function parseCreateRequest(body: unknown): CreateRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw illegalArgument('the request body must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!FIELDS.has(k)) throw illegalArgument(`unknown field [${k}] in an API key request`);
  if (typeof b.name !== 'string' || b.name.trim().length === 0) throw illegalArgument('[name] is required and must be a non-empty string');
  if (b.security_roles !== undefined && b.roles !== undefined) throw illegalArgument('[security_roles] and its alias [roles] cannot both be given');
  if (b.expiration !== undefined && typeof b.expiration !== 'string') throw illegalArgument('[expiration] must be a duration such as [30d]');
  return {
    name: b.name,
    securityRoles: stringList(b, b.roles !== undefined ? 'roles' : 'security_roles'),
    backendRoles: stringList(b, 'backend_roles'),
    expiration: b.expiration as string | undefined,
  };
}

/** `ApiKey <base64(id:secret)>`, scheme case-insensitive; undefined when absent. */
export function parseApiKeyHeader(header: string | undefined): { id: string; secret: string } | 'malformed' | undefined {
  if (header === undefined || header.length < 7 || header.slice(0, 7).toLowerCase() !== 'apikey ') return undefined;
  const decoded = Buffer.from(header.slice(7).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return 'malformed';
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export class ApiKeys {
  private readonly store: SystemIndex<ApiKeyRecord>;
  private readonly verified: VerifiedSecrets<Principal>;

  constructor(
    dataPath: string,
    private readonly settings: SecuritySettings,
    private readonly model: () => SecurityModel,
    private readonly dummyHash: Promise<string>,
    /** Whether a failed key should carry the basic challenge (a challenging domain exists). */
    private readonly challenge: boolean,
  ) {
    this.store = SystemIndex.open<ApiKeyRecord>(dataPath, settings.apiKeys.indexName);
    this.verified = new VerifiedSecrets(settings.cacheTtlMillis);
  }

  get enabled(): boolean {
    return this.settings.apiKeys.enabled;
  }

  /** Milliseconds a new key lives: the request's duration or the default, at most the maximum. */
  private lifetime(expiration: string | undefined): number {
    if (expiration === undefined) return Math.min(this.settings.apiKeys.defaultExpirationMillis, this.settings.apiKeys.maxExpirationMillis);
    const ms = timeValueMillis(parseTimeValue(expiration, 'expiration'));
    if (!(ms > 0)) throw illegalArgument(`[expiration] must be a positive duration, got [${expiration}]`);
    return Math.min(ms, this.settings.apiKeys.maxExpirationMillis);
  }

  async create(creator: Principal, req: CreateRequest): Promise<Record<string, unknown>> {
    let securityRoles = req.securityRoles;
    let backendRoles = req.backendRoles;
    if (!creator.superAdmin) {
      // A key is never more than its creator: asked-for roles must be held, and none asked for
      // means the creator's own.
      if (securityRoles === undefined && backendRoles === undefined) {
        securityRoles = creator.securityRoles;
        backendRoles = creator.backendRoles;
      }
      const missingSecurity = (securityRoles ?? []).filter((r) => !creator.securityRoles.includes(r));
      if (missingSecurity.length > 0) throw apiKeyRolesNotHeld('security_roles', missingSecurity, creator.name, creator.backendRoles);
      const missingBackend = (backendRoles ?? []).filter((r) => !creator.backendRoles.includes(r));
      if (missingBackend.length > 0) throw apiKeyRolesNotHeld('backend_roles', missingBackend, creator.name, creator.backendRoles);
    }
    const lifetime = this.lifetime(req.expiration);
    let id = randomBytes(15).toString('base64url');
    while (this.store.has(id)) id = randomBytes(15).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const now = Date.now();
    const record: ApiKeyRecord = {
      name: req.name,
      hash: await hash(secret, this.settings.bcryptRounds),
      backend_roles: [...(backendRoles ?? [])],
      security_roles: [...(securityRoles ?? [])],
      creator: creator.name,
      created_at: now,
      expiration_at: now + lifetime,
      invalidated: false,
    };
    await this.store.put(id, record);
    return { id, name: record.name, api_key: Buffer.from(`${id}:${secret}`).toString('base64'), expiration_at: record.expiration_at };
  }

  /** Forgets every verified key (the roles it maps to changed). */
  forgetAll(): void {
    this.verified.clear();
  }

  list(): Array<Record<string, unknown>> {
    return this.store.entries().map(([id, r]) => metadataOf(id, r));
  }

  get(id: string): Record<string, unknown> {
    const r = this.store.get(id);
    if (r === undefined) throw apiKeyNotFound(id);
    return metadataOf(id, r);
  }

  /** Soft revocation: the record stays, marked invalidated, and stops authenticating at once. */
  async revoke(id: string): Promise<Record<string, unknown>> {
    const r = this.store.get(id);
    if (r === undefined) throw apiKeyNotFound(id);
    this.verified.forget(id);
    if (!r.invalidated) await this.store.put(id, { ...r, invalidated: true });
    return { id, invalidated: true };
  }

  private principalFor(id: string, r: ApiKeyRecord): Principal {
    // The key runs as its creator's identity with the key's own roles: those it carries, and
    // those its backend roles map to (not those the creator's name maps to).
    const model = this.model();
    return makePrincipal(model, r.creator, r.backend_roles, mappedRoles(model, undefined, r.backend_roles, r.security_roles), id);
  }

  private usable(id: string, r: ApiKeyRecord | undefined): ApiKeyRecord {
    if (r === undefined) throw apiKeyRejected('invalid API key credentials', this.challenge);
    if (r.invalidated) throw apiKeyRejected(`API key [${id}] has been invalidated`, this.challenge);
    if (r.expiration_at <= Date.now()) throw apiKeyRejected(`API key [${id}] has expired`, this.challenge);
    return r;
  }

  authenticate(id: string, secret: string): Principal | Promise<Principal> {
    const record = this.store.get(id);
    // Revocation and expiry are checked on every request, remembered or not.
    const known = this.verified.get(id, secret);
    if (known !== undefined) {
      this.usable(id, record);
      return known;
    }
    // bcrypt runs for an unknown id too, so timing does not tell which ids exist.
    return this.verified.checkOnce(id, secret, () =>
      (record === undefined ? this.dummyHash : Promise.resolve(record.hash))
        .then((h) => verify(secret, h))
        .catch(() => false)
        .then((ok) => {
          if (!ok) throw apiKeyRejected('invalid API key credentials', this.challenge);
          const principal = this.principalFor(id, this.usable(id, this.store.get(id)));
          this.verified.remember(id, secret, principal);
          return principal;
        }),
    );
  }
}
