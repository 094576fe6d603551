import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SystemIndex, isSystemIndexName } from '../../src/system/system-index';

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'quarry-system-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('SystemIndex', () => {
  it('keeps documents across a reopen, in write order, and reserves its name', async () => {
    const data = dataDir();
    const a = SystemIndex.open<{ n: number }>(data, '.test_system_a');
    expect(isSystemIndexName('.test_system_a')).toBe(true);
    expect(isSystemIndexName('.test_system_b')).toBe(false);
    await Promise.all([a.put('x', { n: 1 }), a.put('y', { n: 2 }), a.put('x', { n: 3 })]);
    expect(await a.delete('y')).toBe(true);
    expect(await a.delete('nope')).toBe(false);
    await a.put('z', { n: 4 });
    const b = SystemIndex.open<{ n: number }>(data, '.test_system_a');
    expect(b.entries()).toEqual([
      ['x', { n: 3 }],
      ['z', { n: 4 }],
    ]);
    // no temp file is left behind
    expect(readdirSync(path.join(data, '_system'))).toEqual(['.test_system_a.json']);
  });

  it('ignores a temp file a killed write left behind', async () => {
    const data = dataDir();
    const a = SystemIndex.open<string>(data, '.test_system_c');
    await a.put('k', 'v');
    writeFileSync(path.join(data, '_system', '.test_system_c.json.tmp'), '{"docs":[["k","torn');
    expect(SystemIndex.open<string>(data, '.test_system_c').get('k')).toBe('v');
  });
});
