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

function load(argv: string[] = [], env: NodeJS.ProcessEnv = {}, yml = '') {
  return loadConfig({ argv, env, configDir: dirWith(yml), cwd: '/srv' });
}

describe('loadConfig', () => {
  it('has OpenSearch-named defaults', () => {
    const c = load();
    expect(c.http.port).toBe(9200);
    expect(c.http.portRange).toEqual({ from: 9200, to: 9200 });
    expect(c.network.host).toBe('127.0.0.1');
    expect(c.path.data).toBe('/srv/data');
    expect(c.http.maxContentLength).toBe(100 * 1024 * 1024);
    expect(c.cluster.name).toBe('quarry');
    expect(c.node.name).toBe(os.hostname());
    expect(c.action.autoCreateIndex).toBe('true');
    expect(c.compatibility.overrideMainResponseVersion).toBe(false);
    expect(c.settings['http.max_content_length']).toBe('100mb');
  });

  it('layers file < environment < -E flags, flat or nested keys', () => {
    const yml = 'cluster:\n  name: from-file\nhttp.port: 9300\nnode.name: n1\npath:\n  data: /var/q\n';
    const c = load(['-E', 'http.port=9250', '-Enode.name=n2'], { QUARRY_HTTP__PORT: '9240', QUARRY_CLUSTER__NAME: 'from-env' }, yml);
    expect(c.http.port).toBe(9250);
    expect(c.cluster.name).toBe('from-env');
    expect(c.node.name).toBe('n2');
    expect(c.path.data).toBe('/var/q');
  });

  it('maps QUARRY_ variables with __ to dotted lower-case keys and ignores the others', () => {
    const c = load([], {
      QUARRY_ACTION__AUTO_CREATE_INDEX: '+logs-*,-*',
      QUARRY_COMPATIBILITY__OVERRIDE_MAIN_RESPONSE_VERSION: 'true',
      QUARRY_PATH_CONF: '/etc/quarry',
      QUARRY_ADMIN_PASSWORD: 'secret',
    });
    expect(c.action.autoCreateIndex).toBe('+logs-*,-*');
    expect(c.compatibility.overrideMainResponseVersion).toBe(true);
  });

  it('resolves path.data against cwd and takes port ranges', () => {
    const c = load(['-E', 'path.data=rel/dir', '-E', 'http.port=9200-9300']);
    expect(c.path.data).toBe('/srv/rel/dir');
    expect(c.http.portRange).toEqual({ from: 9200, to: 9300 });
    expect(c.http.port).toBe(9200);
  });

  it('resolves network.host special values', () => {
    expect(load(['-E', 'network.host=_local_']).network.host).toBe('127.0.0.1');
    expect(load(['-E', 'network.host=localhost']).network.host).toBe('127.0.0.1');
    expect(load(['-E', 'network.host=0.0.0.0']).network.host).toBe('0.0.0.0');
    expect(load(['-E', 'network.host=[::1]']).network.host).toBe('::1');
    expect(() => load(['-E', 'network.host=_nosuchiface0_'])).toThrow(/setting \[network.host\]/);
    expect(() => load(['-E', 'network.host=not a host'])).toThrow(/setting \[network.host\]/);
  });

  it('substitutes ${VAR} in the file from the environment', () => {
    expect(load([], { NAME: 'c1' }, 'cluster.name: ${NAME}\n').cluster.name).toBe('c1');
    expect(() => load([], {}, 'cluster.name: ${MISSING}\n')).toThrow("Could not resolve placeholder 'MISSING'");
  });

  it('refuses unknown settings, suggesting close names', () => {
    expect(() => load(['-E', 'http.prot=1'])).toThrow('unknown setting [http.prot] did you mean [http.port]?');
    expect(() => load([], {}, 'foo.bar: 1\n')).toThrow(
      'unknown setting [foo.bar] please check that any required plugins are installed, or check the breaking changes documentation for removed settings',
    );
  });

  it('names the key in bad values', () => {
    expect(() => load(['-E', 'http.max_content_length=lots'])).toThrow(
      'failed to parse setting [http.max_content_length] with value [lots] as a size in bytes: unit is missing or unrecognized',
    );
    expect(() => load(['-E', 'http.max_content_length=3gb'])).toThrow(
      'failed to parse value [3gb] for setting [http.max_content_length], must be <= [2147483647b]',
    );
    expect(() => load(['-E', 'http.max_content_length=x.ymb'])).toThrow('Failed to parse value [x.ymb] for setting [http.max_content_length]: failed to parse [x.ymb]');
    expect(() => load(['-E', 'compatibility.override_main_response_version=yes'])).toThrow(
      'Failed to parse value [yes] for setting [compatibility.override_main_response_version]: Failed to parse value [yes] as only [true] or [false] are allowed.',
    );
    expect(() => load(['-E', 'http.port=abc'])).toThrow('Failed to parse value [abc] for setting [http.port]');
    expect(() => load(['-E', 'http.port=9300-9200'])).toThrow(/setting \[http.port\]/);
    expect(() => load(['-E', 'cluster.name=a:b'])).toThrow("[cluster.name] must not contain ':'");
    expect(() => load(['-E', 'action.auto_create_index=+'])).toThrow("Can't parse [+] for setting [action.auto_create_index] must contain an index name after [+]");
  });

  it('reads the long-running-operation notification delay as a time value', () => {
    expect(load().lron.notificationDelayMs).toBe(5000);
    expect(load(['-E', 'plugins.lron.notification_delay=250ms']).lron.notificationDelayMs).toBe(250);
    expect(load(['-E', 'plugins.lron.notification_delay=0']).lron.notificationDelayMs).toBe(0);
    expect(() => load(['-E', 'plugins.lron.notification_delay=-1'])).toThrow('failed to parse value [-1] for setting [plugins.lron.notification_delay], must be >= [0ms]');
    expect(() => load(['-E', 'plugins.lron.notification_delay=5'])).toThrow(
      'failed to parse setting [plugins.lron.notification_delay] with value [5] as a time value: unit is missing or unrecognized',
    );
  });

  it('checks the command line like OpenSearch launcher', () => {
    expect(() => load(['-E', 'http.port=1', '-E', 'http.port=2'])).toThrow('setting [http.port] already set, saw [1] and [2]');
    expect(() => load(['-E', 'http.port='])).toThrow('setting [http.port] must not be empty');
    expect(() => load(['-E', 'http.port'])).toThrow('must be of the form key=value');
    expect(() => load(['--port', '1'])).toThrow('unknown command line argument [--port]');
    expect(() => load(['-E'])).toThrow('requires an argument');
  });

  it('refuses duplicate keys in the file (flat and nested)', () => {
    expect(() => load([], {}, 'http.port: 1\nhttp:\n  port: 2\n')).toThrow(/duplicate settings key \[http.port\]/);
  });

  it('works without a config file', () => {
    const c = loadConfig({ argv: [], env: {}, configDir: path.join(os.tmpdir(), 'quarry-no-such-dir'), cwd: '/srv' });
    expect(c.http.port).toBe(9200);
  });

  it('reads the shipped config/quarry.yml (all commented out: defaults)', () => {
    const c = loadConfig({ argv: [], env: {}, configDir: path.resolve(__dirname, '../../config'), cwd: '/srv' });
    expect(c.cluster.name).toBe('quarry');
    expect(c.http.maxContentLength).toBe(104857600);
  });
});
