// The registry of node settings: OpenSearch's keys, their parsers and defaults.
import os from 'node:os';
import path from 'node:path';
import { parseByteSize } from './units';

export interface SettingDef {
  readonly default: (cwd: string) => string;
  readonly validate: (value: string, key: string) => void;
}

function bool(value: string, key: string): void {
  if (value !== 'true' && value !== 'false') {
    throw new Error(`Failed to parse value [${value}] as only [true] or [false] are allowed. (setting [${key}])`);
  }
}

function port(value: string, key: string): void {
  const ok = /^\d+(-\d+)?$/.test(value) && value.split('-').every((p) => Number(p) >= 0 && Number(p) <= 65535);
  if (!ok) throw new Error(`Failed to parse value [${value}] for setting [${key}]: expected a port or a port range`);
}

export const SETTINGS: Readonly<Record<string, SettingDef>> = {
  'cluster.name': { default: () => 'quarry', validate: () => undefined },
  'node.name': { default: () => os.hostname(), validate: () => undefined },
  'path.data': { default: (cwd) => path.join(cwd, 'data'), validate: () => undefined },
  'network.host': { default: () => '127.0.0.1', validate: () => undefined },
  'http.port': { default: () => '9200', validate: port },
  'http.max_content_length': { default: () => '100mb', validate: (v, k) => void parseByteSize(v, k) },
  'action.auto_create_index': { default: () => 'true', validate: () => undefined },
  'compatibility.override_main_response_version': { default: () => 'false', validate: bool },
};
