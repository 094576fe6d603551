// Where setting values come from, lowest precedence first: config/quarry.yml, QUARRY_* environment
// variables, `-E key=value` command-line flags. Each source yields raw string values by key.
import fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { OpenSearchError } from '../http/errors';

function settingsError(reason: string): OpenSearchError {
  return new OpenSearchError(400, 'settings_exception', reason);
}

/** `${NAME}` placeholders in the file are replaced from the environment, as OpenSearch does. */
function substitute(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([^}]+)\}/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) throw settingsError(`Could not resolve placeholder '${name}'`);
    return v;
  });
}

function flatten(prefix: string, value: unknown, out: Map<string, string>, file: string, env: NodeJS.ProcessEnv): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      flatten(prefix === '' ? k : `${prefix}.${k}`, v, out, file, env);
    }
    return;
  }
  if (value === null || value === undefined) return;
  const text = Array.isArray(value) ? value.map((x) => String(x)).join(',') : String(value);
  const previous = out.get(prefix);
  if (previous !== undefined) {
    throw settingsError(`duplicate settings key [${prefix}] found in [${file}], previous value [${previous}], current value [${text}]`);
  }
  out.set(prefix, substitute(text, env));
}

/** Settings from a YAML file with flat dotted keys, nested keys, or both. A missing file is empty. */
export function fromYamlFile(file: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw settingsError(`Failed to load settings from [${file}]: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw settingsError(`Failed to load settings from [${file}]: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) return out;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw settingsError(`Failed to load settings from [${file}]: expected a map of settings`);
  flatten('', doc, out, file, env);
  return out;
}

const ENV_PREFIX = 'QUARRY_';

/**
 * `QUARRY_<KEY>` with the key upper-cased and dots written as `__`: `QUARRY_HTTP__PORT=9250` is
 * `http.port`. Only names with a `__` are settings (every setting key has a dot), so other
 * QUARRY_* variables (QUARRY_PATH_CONF, passwords) are left alone.
 */
export function fromEnv(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith(ENV_PREFIX)) continue;
    const rest = name.slice(ENV_PREFIX.length);
    if (!rest.includes('__')) continue;
    out.set(rest.toLowerCase().split('__').join('.'), value);
  }
  return out;
}

/** `-E key=value` and `-Ekey=value`, as OpenSearch's launcher takes them. */
export function fromArgv(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    let pair: string | undefined;
    if (arg === '-E') {
      pair = argv[++i];
      if (pair === undefined) throw settingsError('option [-E] requires an argument of the form key=value');
    } else if (arg.startsWith('-E')) {
      pair = arg.slice(2);
    } else {
      throw settingsError(`unknown command line argument [${arg}]; settings are given as -E key=value`);
    }
    const eq = pair.indexOf('=');
    if (eq <= 0) throw settingsError(`setting [${pair}] must be of the form key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (value.length === 0) throw settingsError(`setting [${key}] must not be empty`);
    const previous = out.get(key);
    if (previous !== undefined) throw settingsError(`setting [${key}] already set, saw [${previous}] and [${value}]`);
    out.set(key, value);
  }
  return out;
}
