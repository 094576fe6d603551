import { describe, expect, it } from 'vitest';
import { parseAutoCreateIndex } from '../../src/config/auto-create-index';

// Whether an index may be auto-created is decided (and refusals worded) by the engine:
// crates/engine/src/metadata/auto_create.rs. Here: the setting is validated at start-up.
describe('action.auto_create_index', () => {
  it('reads true, false and pattern lists', () => {
    expect(parseAutoCreateIndex('true').enabled).toBe(true);
    expect(parseAutoCreateIndex('false').enabled).toBe(false);
    expect(parseAutoCreateIndex('+logs-keep*,-logs-*,metrics-*').patterns).toEqual([
      { pattern: 'logs-keep*', allow: true },
      { pattern: 'logs-*', allow: false },
      { pattern: 'metrics-*', allow: true },
    ]);
  });

  it('refuses malformed lists', () => {
    expect(() => parseAutoCreateIndex('a,,b')).toThrow(
      "Can't parse [a,,b] for setting [action.auto_create_index] must be either [true, false, or a comma separated list of index patterns]",
    );
    expect(() => parseAutoCreateIndex('-')).toThrow('must contain an index name after [-]');
  });
});
