// The node's security, made once at start: its TLS material (its own certificates, made on the
// first start, or the files the settings name), the internal users with the node's `admin`, the
// roles, and the API keys. `buildApp` takes the result; `undefined` means security is disabled
// (`plugins.security.disabled: true`), and every request then runs unchecked.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/bcrypt';
import type { NodeConfig } from '../config';
import { SystemIndex } from '../system/system-index';
import { ApiKeys } from './api-keys';
import { ensureCertificates } from './certificates';
import { InternalUsers } from './internal-users';
import type { InternalUser } from './security-config';
import { SecurityStore } from './security-store';

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
  readonly ca: string | undefined;
}

export interface Security {
  /** The configuration in effect (files, then the security REST API's changes). */
  readonly store: SecurityStore;
  readonly users: InternalUsers;
  readonly apiKeys: ApiKeys;
  readonly adminDns: ReadonlySet<string>;
  /** Whether some domain challenges (a rejected key then carries the basic challenge). */
  readonly challenges: boolean;
  /** HTTPS material; undefined when `plugins.security.ssl.http.enabled` is false. */
  readonly tls: TlsMaterial | undefined;
  /** Lines for the operator, printed once at start (a generated password, new certificates). */
  readonly notices: readonly string[];
}

/** The system index holding the node's own `admin` user (made on the first start). */
const USERS_INDEX = '.opendistro_security';

interface StoredUser {
  readonly hash: string;
  readonly backend_roles: readonly string[];
}

async function bootstrapAdmin(config: NodeConfig, store: SystemIndex<unknown>, env: NodeJS.ProcessEnv, notices: string[]): Promise<InternalUser> {
  let admin = store.get('admin') as StoredUser | undefined;
  if (admin === undefined) {
    const given = env.OPENSEARCH_INITIAL_ADMIN_PASSWORD;
    const password = given !== undefined && given.length > 0 ? given : randomBytes(18).toString('base64url');
    admin = { hash: await hash(password, config.security.bcryptRounds), backend_roles: ['admin'] };
    await store.put('admin', admin);
    notices.push(
      given !== undefined && given.length > 0
        ? 'security: user [admin] created with the password in OPENSEARCH_INITIAL_ADMIN_PASSWORD'
        : `security: user [admin] created with the generated password [${password}] (shown this once)`,
    );
  }
  return { hash: admin.hash, backendRoles: admin.backend_roles, securityRoles: [], attributes: {} };
}

async function tlsMaterial(config: NodeConfig, notices: string[]): Promise<{ tls: TlsMaterial; adminDn: string | undefined }> {
  const s = config.security;
  if (s.pemCert !== undefined || s.pemKey !== undefined) {
    if (s.pemCert === undefined || s.pemKey === undefined) {
      throw new Error('plugins.security.ssl.http.pemcert_filepath and pemkey_filepath must be set together');
    }
    const ca = s.pemTrustedCas === undefined ? undefined : readFileSync(s.pemTrustedCas, 'utf8');
    return { tls: { key: readFileSync(s.pemKey, 'utf8'), cert: readFileSync(s.pemCert, 'utf8'), ca }, adminDn: undefined };
  }
  const host = config.network.host;
  const isIp = net.isIP(host) !== 0;
  const certs = await ensureCertificates(path.join(config.path.data, 'certs'), {
    hostnames: [os.hostname(), ...(isIp ? [] : [host])],
    ips: isIp && host !== '0.0.0.0' && host !== '::' ? [host] : [],
  });
  if (certs.created) notices.push(`security: certificates created in [${certs.dir}] (trust root-ca.pem; admin.pem is the admin client certificate)`);
  return { tls: { key: certs.nodeKey, cert: certs.nodeCert, ca: certs.caCert }, adminDn: certs.adminDn };
}

export async function prepareSecurity(config: NodeConfig, env: NodeJS.ProcessEnv): Promise<Security | undefined> {
  const s = config.security;
  if (!s.enabled) return undefined;
  const notices: string[] = [];
  // Unknown users and key ids are checked against this, so a miss costs what a hit does. Made in
  // the background: the node listens meanwhile, and a first miss waits for it.
  const dummyHash = hash(randomBytes(16).toString('hex'), s.bcryptRounds);
  // Its failure surfaces where it is awaited; unawaited it must not take the process down.
  dummyHash.catch(() => undefined);
  const system = SystemIndex.open<unknown>(config.path.data, USERS_INDEX);
  const admin = await bootstrapAdmin(config, system, env, notices);
  const material = s.httpTls ? await tlsMaterial(config, notices) : undefined;
  const store = new SecurityStore(config.path.conf, system, admin);
  const model = store.model;
  const challenges = model.domains.some((d) => d.challenge);
  const adminDns = new Set(s.adminDn.length > 0 ? s.adminDn : material?.adminDn !== undefined ? [material.adminDn] : []);
  const users = new InternalUsers(() => store.model, dummyHash, s.cacheTtlMillis);
  const apiKeys = new ApiKeys(config.path.data, s, () => store.model, dummyHash, challenges);
  store.onChange(() => {
    users.forgetAll();
    apiKeys.forgetAll();
  });
  return {
    store,
    users,
    apiKeys,
    adminDns,
    challenges,
    tls: material?.tls,
    notices,
  };
}
