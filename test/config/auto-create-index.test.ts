import { describe, expect, it } from 'vitest';
import { autoCreateAllowed, autoCreateRefusal, parseAutoCreateIndex, simpleMatch } from '../../src/config/auto-create-index';

function config(value: string) {
  return { action: { autoCreate: parseAutoCreateIndex(value) } };
}

describe('action.auto_create_index', () => {
  it('true and false', () => {
    expect(autoCreateAllowed(config('true'), 'anything')).toBe(true);
    expect(autoCreateAllowed(config('false'), 'anything')).toBe(false);
    expect(autoCreateRefusal(parseAutoCreateIndex('false'), 'x')?.reason).toBe('no such index [x] and [action.auto_create_index] is [false]');
  });

  it('first matching pattern decides', () => {
    const c = config('+logs-keep*,-logs-*,metrics-*');
    expect(autoCreateAllowed(c, 'logs-keep-1')).toBe(true);
    expect(autoCreateAllowed(c, 'logs-2024')).toBe(false);
    expect(autoCreateAllowed(c, 'metrics-cpu')).toBe(true);
    expect(autoCreateAllowed(c, 'other')).toBe(false);
  });

  it('words refusals as OpenSearch does', () => {
    const s = parseAutoCreateIndex('-logs-*,metrics-*');
    const forbidden = autoCreateRefusal(s, 'logs-1');
    expect(forbidden?.status).toBe(404);
    expect(forbidden?.type).toBe('index_not_found_exception');
    expect(forbidden?.reason).toBe('no such index [logs-1] and [action.auto_create_index] contains [-logs-*] which forbids automatic creation of the index');
    expect(forbidden?.extra).toEqual({ index: 'logs-1', index_uuid: '_na_' });
    expect(autoCreateRefusal(s, 'zzz')?.reason).toBe("no such index [zzz] and [action.auto_create_index] ([-logs-*,metrics-*]) doesn't match");
  });

  it('refuses malformed lists', () => {
    expect(() => parseAutoCreateIndex('a,,b')).toThrow(
      "Can't parse [a,,b] for setting [action.auto_create_index] must be either [true, false, or a comma separated list of index patterns]",
    );
    expect(() => parseAutoCreateIndex('-')).toThrow('must contain an index name after [-]');
  });

  it('matches * anywhere', () => {
    expect(simpleMatch('a*b*c', 'aXXbYYc')).toBe(true);
    expect(simpleMatch('a*b*c', 'acb')).toBe(false);
    expect(simpleMatch('*', '')).toBe(true);
    expect(simpleMatch('ab*ba', 'aba')).toBe(false);
  });
});
