// Node settings: defaults < config/quarry.yml < QUARRY_* environment < `-E key=value` flags,
// with OpenSearch's setting names. Unknown keys and bad values stop the node at start.
import path from 'node:path';
import { OpenSearchError } from '../http/errors';
import { suggest } from '../http/levenshtein';
import type { AutoCreateIndex } from './auto-create-index';
import type { PortRange } from './port-range';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey, type SettingValues } from './settings';
import { fromArgv, fromEnv, fromYamlFile } from './sources';

export interface NodeConfig {
  readonly cluster: { readonly name: string };
  readonly node: { readonly name: string };
  /** Absolute. */
  readonly path: {
    readonly data: string;
    /** The folder holding quarry.yml and `opensearch-security/` (absolute). */
    readonly conf: string;
  };
  /** The address to bind (special values already resolved). */
  readonly network: { readonly host: string };
  readonly http: {
    /** The first port of `portRange`. */
    readonly port: number;
    readonly portRange: PortRange;
    /** Bytes. */
    readonly maxContentLength: number;
  };
  readonly action: {
    /** The setting as written (handed to the engine). */
    readonly autoCreateIndex: string;
    readonly autoCreate: AutoCreateIndex;
  };
  readonly compatibility: { readonly overrideMainResponseVersion: boolean };
  readonly security: SecuritySettings;
  readonly lron: {
    /** Milliseconds between an operation's end and the look-up of its notification settings. */
    readonly notificationDelayMs: number;
  };
  /** Every setting's effective value as a string, by OpenSearch key (for `_nodes/settings`). */
  readonly settings: Readonly<Record<SettingKey, string>>;
}

export interface SecuritySettings {
  readonly enabled: boolean;
  readonly httpTls: boolean;
  /** User-provided PEM files; the node's own certificates when unset. */
  readonly pemCert: string | undefined;
  readonly pemKey: string | undefined;
  readonly pemTrustedCas: string | undefined;
  /** Client certificate subjects that act as the super admin (the node's admin cert when empty). */
  readonly adminDn: readonly string[];
  readonly cacheTtlMillis: number;
  readonly bcryptRounds: number;
  readonly apiKeys: {
    readonly enabled: boolean;
    readonly defaultExpirationMillis: number;
    readonly maxExpirationMillis: number;
    readonly cacheRefreshMillis: number;
    readonly indexName: string;
  };
}

export interface ConfigSources {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Folder holding quarry.yml; defaults to `<cwd>/config`. */
  readonly configDir?: string | undefined;
  /** Folder relative paths resolve against; defaults to process.cwd(). */
  readonly cwd?: string;
}

function unknownSetting(key: string): OpenSearchError {
  const near = suggest(key, SETTING_KEYS, 0.7);
  let reason = `unknown setting [${key}]`;
  if (near.length === 1) reason += ` did you mean [${near[0]}]?`;
  else if (near.length > 1) reason += ` did you mean any of [${near.join(', ')}]?`;
  else reason += ' please check that any required plugins are installed, or check the breaking changes documentation for removed settings';
  return new OpenSearchError(400, 'illegal_argument_exception', reason);
}

/** Runs a parser; a failure whose message does not name the key is reworded so that it does. */
function parseNamed<T>(key: string, value: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    const reason = e instanceof OpenSearchError ? e.reason : e instanceof Error ? e.message : String(e);
    if (reason.includes(`[${key}]`)) throw e;
    const cause = e instanceof OpenSearchError ? e : undefined;
    throw new OpenSearchError(400, 'illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]: ${reason}`, {}, cause);
  }
}

export function loadConfig(sources: ConfigSources): NodeConfig {
  const cwd = sources.cwd ?? process.cwd();
  const configDir = path.resolve(cwd, sources.configDir ?? 'config');
  const merged = new Map<string, string>();
  for (const layer of [fromYamlFile(path.join(configDir, 'quarry.yml'), sources.env), fromEnv(sources.env), fromArgv(sources.argv)]) {
    for (const [k, v] of layer) merged.set(k, v);
  }
  for (const key of merged.keys()) {
    if (!isSettingKey(key)) throw unknownSetting(key);
  }
  const ctx = { cwd };
  const raw = {} as Record<SettingKey, string>;
  const values = {} as Record<SettingKey, unknown>;
  for (const key of SETTING_KEYS) {
    const def = SETTINGS[key];
    const value = merged.get(key) ?? def.default(ctx);
    raw[key] = value;
    values[key] = parseNamed(key, value, () => def.parse(value, ctx));
  }
  const v = values as SettingValues;
  return {
    cluster: { name: v['cluster.name'] },
    node: { name: v['node.name'] },
    path: { data: v['path.data'], conf: configDir },
    network: { host: v['network.host'] },
    http: { port: v['http.port'].from, portRange: v['http.port'], maxContentLength: v['http.max_content_length'] },
    action: { autoCreateIndex: raw['action.auto_create_index'], autoCreate: v['action.auto_create_index'] },
    compatibility: { overrideMainResponseVersion: v['compatibility.override_main_response_version'] },
    security: {
      enabled: !v['plugins.security.disabled'],
      httpTls: v['plugins.security.ssl.http.enabled'],
      pemCert: v['plugins.security.ssl.http.pemcert_filepath'],
      pemKey: v['plugins.security.ssl.http.pemkey_filepath'],
      pemTrustedCas: v['plugins.security.ssl.http.pemtrustedcas_filepath'],
      adminDn: v['plugins.security.authcz.admin_dn'],
      cacheTtlMillis: v['plugins.security.cache.ttl_minutes'] * 60_000,
      bcryptRounds: v['plugins.security.password.hashing.bcrypt.rounds'],
      apiKeys: {
        enabled: v['plugins.security.apikey.enabled'],
        defaultExpirationMillis: v['plugins.security.apikey.default_expiration'],
        maxExpirationMillis: v['plugins.security.apikey.max_expiration'],
        cacheRefreshMillis: v['plugins.security.apikey.cache_refresh_interval'],
        indexName: v['plugins.security.apikey.index_name'],
      },
    },
    lron: { notificationDelayMs: v['plugins.lron.notification_delay'] },
    settings: raw,
  };
}
