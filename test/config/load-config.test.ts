import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';

function dirWith(yml: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-config-'));
  fs.writeFileSync(path.join(d, 'quarry.yml'), yml);
  return d;
}

describe('loadConfig', () => {
  it('has OpenSearch-named defaults', () => {
    const c = loadConfig({ argv: [], env: {}, configDir: dirWith(''), cwd: '/srv' });
    expect(c.http.port).toBe(9200);
    expect(c.network.host).toBe('127.0.0.1');
    expect(c.path.data).toBe('/srv/data');
    expect(c.http.maxContentLength).toBe(100 * 1024 * 1024);
    expect(c.cluster.name).toBe('quarry');
  });

  it('layers file < environment < -E flags, flat or nested keys', () => {
    const dir = dirWith('cluster:\n  name: from-file\nhttp.port: 9300\nnode.name: n1\n');
    const c = loadConfig({ argv: ['-E', 'http.port=9250', '-Enode.name=n2'], env: { QUARRY_HTTP__PORT: '9240', QUARRY_CLUSTER__NAME: 'from-env' }, configDir: dir });
    expect(c.http.port).toBe(9250);
    expect(c.cluster.name).toBe('from-env');
    expect(c.node.name).toBe('n2');
  });

  it('refuses unknown settings and bad values', () => {
    expect(() => loadConfig({ argv: ['-E', 'http.prot=1'], env: {}, configDir: dirWith('') })).toThrow('unknown setting [http.prot]');
    expect(() => loadConfig({ argv: ['-E', 'http.max_content_length=lots'], env: {}, configDir: dirWith('') })).toThrow(/size in bytes/);
    expect(() => loadConfig({ argv: ['-E', 'compatibility.override_main_response_version=yes'], env: {}, configDir: dirWith('') })).toThrow(/true\] or \[false/);
  });
});
