// The one registry of node settings: OpenSearch's key, a parser that turns the string value into
// its typed form (throwing with OpenSearch's wording), and the default.
import os from 'node:os';
import path from 'node:path';
import { OpenSearchError } from '../http/errors';
import { parseAutoCreateIndex, type AutoCreateIndex } from './auto-create-index';
import { parseNetworkHost } from './network-host';
import { parsePortRange, type PortRange } from './port-range';
import { parseByteSize, parseTimeValue, timeValueMillis } from './units';

export interface SettingContext {
  /** Folder relative paths are resolved against. */
  readonly cwd: string;
}

export interface SettingDef<T> {
  readonly key: string;
  readonly parse: (value: string, ctx: SettingContext) => T;
  readonly default: (ctx: SettingContext) => string;
}

function define<T>(key: string, defaultValue: string | ((ctx: SettingContext) => string), parse: (value: string, key: string, ctx: SettingContext) => T): SettingDef<T> {
  return {
    key,
    parse: (value, ctx) => parse(value, key, ctx),
    default: typeof defaultValue === 'string' ? () => defaultValue : defaultValue,
  };
}

function illegal(reason: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', reason);
}

function bool(value: string, key: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw illegal(`Failed to parse value [${value}] for setting [${key}]: Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

function nonEmpty(value: string, key: string): string {
  if (value.length === 0) throw illegal(`[${key}] must not be empty`);
  return value;
}

/** `http.max_content_length`: a byte size between 0 and 2147483647b, as OpenSearch bounds it. */
function maxContentLength(value: string, key: string): number {
  const bytes = parseByteSize(value, key);
  if (bytes < 0) throw illegal(`failed to parse value [${value}] for setting [${key}], must be >= [0b]`);
  if (bytes > 2147483647) throw illegal(`failed to parse value [${value}] for setting [${key}], must be <= [2147483647b]`);
  return bytes;
}

/**
 * A time value in milliseconds, at least `min` (`30d`, `10s`), refused below it with OpenSearch's
 * wording for a time setting with a minimum (`Setting.timeSetting(key, default, min)`).
 */
function millis(min: number) {
  return (value: string, key: string): number => {
    const ms = timeValueMillis(parseTimeValue(value, key));
    if (ms < min) throw illegal(`failed to parse value [${value}] for setting [${key}], must be >= [${min}ms]`);
    return ms;
  };
}

function intBetween(lo: number, hi: number) {
  return (value: string, key: string): number => {
    const n = /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n)) throw illegal(`Failed to parse value [${value}] for setting [${key}]`);
    if (n < lo) throw illegal(`Failed to parse value [${value}] for setting [${key}] must be >= ${lo}`);
    if (n > hi) throw illegal(`Failed to parse value [${value}] for setting [${key}] must be <= ${hi}`);
    return n;
  };
}

/**
 * `plugins.security.authcz.admin_dn`: distinguished names. A YAML list arrives joined by commas
 * (see sources.ts), and a DN has commas of its own, so a new DN starts at each `CN=` that follows
 * another component; `;` also separates.
 */
function dnList(value: string): readonly string[] {
  const out: string[] = [];
  for (const part of value.split(';')) {
    let current: string[] = [];
    for (const rdn of part.split(',').map((x) => x.trim())) {
      if (rdn === '') continue;
      if (/^cn=/i.test(rdn) && current.length > 0) {
        out.push(current.join(','));
        current = [];
      }
      current.push(rdn);
    }
    if (current.length > 0) out.push(current.join(','));
  }
  return out;
}

function optionalPath(value: string, _key: string, ctx: SettingContext): string | undefined {
  return value === '' ? undefined : path.resolve(ctx.cwd, value);
}

export const SETTINGS = {
  'cluster.name': define('cluster.name', 'quarry', (v, k) => {
    nonEmpty(v, k);
    if (v.includes(':')) throw illegal(`[${k}] must not contain ':'`);
    return v;
  }),
  'node.name': define('node.name', () => os.hostname(), nonEmpty),
  'path.data': define('path.data', './data', (v, k, ctx) => path.resolve(ctx.cwd, nonEmpty(v, k))),
  'network.host': define('network.host', '127.0.0.1', parseNetworkHost),
  'http.port': define<PortRange>('http.port', '9200', parsePortRange),
  'http.max_content_length': define('http.max_content_length', '100mb', maxContentLength),
  'action.auto_create_index': define<AutoCreateIndex>('action.auto_create_index', 'true', (v) => parseAutoCreateIndex(v)),
  'compatibility.override_main_response_version': define('compatibility.override_main_response_version', 'false', bool),
  // Security (OpenSearch's security plugin keys): on unless disabled, HTTPS unless turned off.
  'plugins.security.disabled': define('plugins.security.disabled', 'false', bool),
  'plugins.security.ssl.http.enabled': define('plugins.security.ssl.http.enabled', 'true', bool),
  'plugins.security.ssl.http.pemcert_filepath': define('plugins.security.ssl.http.pemcert_filepath', '', optionalPath),
  'plugins.security.ssl.http.pemkey_filepath': define('plugins.security.ssl.http.pemkey_filepath', '', optionalPath),
  'plugins.security.ssl.http.pemtrustedcas_filepath': define('plugins.security.ssl.http.pemtrustedcas_filepath', '', optionalPath),
  'plugins.security.authcz.admin_dn': define('plugins.security.authcz.admin_dn', '', dnList),
  'plugins.security.cache.ttl_minutes': define('plugins.security.cache.ttl_minutes', '60', intBetween(0, 2147483647)),
  'plugins.security.password.hashing.bcrypt.rounds': define('plugins.security.password.hashing.bcrypt.rounds', '12', intBetween(4, 31)),
  'plugins.security.apikey.enabled': define('plugins.security.apikey.enabled', 'true', bool),
  'plugins.security.apikey.default_expiration': define('plugins.security.apikey.default_expiration', '30d', millis(1)),
  'plugins.security.apikey.max_expiration': define('plugins.security.apikey.max_expiration', '365d', millis(1)),
  'plugins.security.apikey.cache_refresh_interval': define('plugins.security.apikey.cache_refresh_interval', '10s', millis(0)),
  'plugins.security.apikey.index_name': define('plugins.security.apikey.index_name', '.neutral_security_api_keys', nonEmpty),
  // Quarry's own (OpenSearch hard-codes 5 s): how long after a long-running operation ends its
  // notification settings are looked up, so a setting made for its task id in that time counts.
  'plugins.lron.notification_delay': define('plugins.lron.notification_delay', '5s', millis(0)),
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** Every setting's typed value. */
export type SettingValues = { readonly [K in SettingKey]: ReturnType<(typeof SETTINGS)[K]['parse']> };

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTINGS, key);
}

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
