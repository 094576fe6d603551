// Node settings: defaults < config/quarry.yml < QUARRY_* environment < `-E key=value` flags,
// with OpenSearch's setting names. Unknown keys and bad values stop the node at start.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SETTINGS } from './settings';
import { parseByteSize } from './units';

export interface NodeConfig {
  readonly cluster: { readonly name: string };
  readonly node: { readonly name: string };
  readonly path: { readonly data: string };
  readonly network: { readonly host: string };
  readonly http: { readonly port: number; readonly maxContentLength: number };
  readonly action: { readonly autoCreateIndex: string };
  readonly compatibility: { readonly overrideMainResponseVersion: boolean };
}

export interface ConfigSources {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Folder holding quarry.yml; defaults to ./config. */
  readonly configDir?: string | undefined;
  readonly cwd?: string;
}

function flatten(prefix: string, value: unknown, out: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      flatten(prefix === '' ? k : `${prefix}.${k}`, v, out);
    }
    return;
  }
  if (value === null || value === undefined) return;
  out.set(prefix, Array.isArray(value) ? value.map(String).join(',') : String(value));
}

function fromArgv(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    let kv: string | undefined;
    if (a === '-E') kv = argv[++i];
    else if (a.startsWith('-E')) kv = a.slice(2);
    else throw new Error(`unknown command line argument [${a}]; settings are given as -E key=value`);
    if (kv === undefined || !kv.includes('=')) throw new Error(`setting [${kv ?? ''}] must be in the form key=value`);
    const eq = kv.indexOf('=');
    out.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return out;
}

function fromEnv(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('QUARRY_') || v === undefined || k === 'QUARRY_PATH_CONF') continue;
    out.set(k.slice('QUARRY_'.length).toLowerCase().split('__').join('.'), v);
  }
  return out;
}

export function loadConfig(sources: ConfigSources): NodeConfig {
  const cwd = sources.cwd ?? process.cwd();
  const merged = new Map<string, string>();
  const file = path.join(sources.configDir ?? path.join(cwd, 'config'), 'quarry.yml');
  if (fs.existsSync(file)) {
    const doc: unknown = parseYaml(fs.readFileSync(file, 'utf8'));
    flatten('', doc ?? {}, merged);
  }
  for (const [k, v] of fromEnv(sources.env)) merged.set(k, v);
  for (const [k, v] of fromArgv(sources.argv)) merged.set(k, v);

  for (const [k, v] of merged) {
    const def = SETTINGS[k];
    if (def === undefined) throw new Error(`unknown setting [${k}]`);
    def.validate(v, k);
  }
  const get = (k: string): string => merged.get(k) ?? SETTINGS[k]?.default(cwd) ?? '';
  const host = get('network.host');
  return {
    cluster: { name: get('cluster.name') },
    node: { name: get('node.name') },
    path: { data: path.resolve(cwd, get('path.data')) },
    network: { host: host === '_local_' ? '127.0.0.1' : host },
    http: {
      port: Number(get('http.port').split('-')[0]),
      maxContentLength: parseByteSize(get('http.max_content_length'), 'http.max_content_length'),
    },
    action: { autoCreateIndex: get('action.auto_create_index') },
    compatibility: { overrideMainResponseVersion: get('compatibility.override_main_response_version') === 'true' },
  };
}
