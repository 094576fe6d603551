// An in-process node with security on (HTTP, no TLS: requests are injected), its own data and
// config folders, and the security configuration files a test gives.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashSync } from '@node-rs/bcrypt';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { prepareSecurity } from '../../src/security/security';

export const ADMIN_PASSWORD = 'Quarry-test-admin-1';

export interface SecuredApp {
  readonly app: App;
  readonly dir: string;
  close(): Promise<void>;
}

/** `Basic` credentials for a header. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A bcrypt hash for internal_users.yml (4 rounds: tests need no strength). */
export function bcrypt(password: string): string {
  return hashSync(password, 4);
}

export async function securedApp(files: Record<string, string> = {}, settings: Record<string, string> = {}, dir?: string): Promise<SecuredApp> {
  const root = dir ?? mkdtempSync(path.join(tmpdir(), 'quarry-sec-'));
  const conf = path.join(root, 'config');
  mkdirSync(path.join(conf, 'opensearch-security'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(conf, 'opensearch-security', name), text);
  const argv = ['-E', `path.data=${path.join(root, 'data')}`, '-E', 'plugins.security.ssl.http.enabled=false', '-E', 'plugins.security.password.hashing.bcrypt.rounds=4'];
  for (const [k, v] of Object.entries(settings)) argv.push('-E', `${k}=${v}`);
  const config = loadConfig({ argv, env: {}, configDir: conf });
  const security = await prepareSecurity(config, { OPENSEARCH_INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD });
  const app = buildApp(config, security);
  return {
    app,
    dir: root,
    close: async () => {
      await app.close();
      if (dir === undefined) rmSync(root, { recursive: true, force: true });
    },
  };
}
