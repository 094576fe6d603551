import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LronNotifier } from '../../src/lron/lron-notifier';
import { LronStore } from '../../src/lron/lron-store';
import { ConfigStore } from '../../src/notifications/config-store';
import { Notifications } from '../../src/notifications/notifications';
import { eventually } from '../support/http-receiver';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function notifier(delayMs: number): { notifier: LronNotifier; lines: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-notifier-'));
  dirs.push(dir);
  const lines: string[] = [];
  return { notifier: new LronNotifier(LronStore.open(dir), new Notifications(ConfigStore.open(dir), 1000), delayMs, (l) => lines.push(l)), lines };
}

const done = { result: 'COMPLETE' as const, title: 'T', message: 'M' };
const ok = Promise.resolve({ status: 200, body: Buffer.from('{}') });

describe('LronNotifier', () => {
  it('logs a channel it could not notify, and deletes the one-time setting', async () => {
    const { notifier: n, lines } = notifier(0);
    await n.store.put('LRON:node:1', { lron_condition: { success: true, failure: false }, task_id: 'node:1', channels: [{ id: 'nowhere' }] }, true);
    await n.watch('node:1', 'indices:admin/forcemerge', ok, () => done);
    await eventually(() => (n.store.get('LRON:node:1') === undefined ? true : undefined));
    expect(lines).toEqual(['[quarry] lron: notifying channel [nowhere] of task [node:1] (indices:admin/forcemerge) failed: 404 Channel nowhere not found']);
  });

  it('never lets a failure reach the operation or the process', async () => {
    const { notifier: n, lines } = notifier(0);
    const failed = Promise.reject(new Error('merge broke'));
    await expect(
      n.watch('node:2', 'indices:admin/forcemerge', failed, () => {
        throw new Error('cannot word it');
      }),
    ).rejects.toThrow('merge broke');
    await eventually(() => (lines.length > 0 ? true : undefined));
    expect(lines).toEqual(['[quarry] lron: notifying the end of task [node:2] (indices:admin/forcemerge) failed: cannot word it']);
  });

  it('waits its delay, and drops what is still waiting when closed', async () => {
    const { notifier: n } = notifier(200);
    await n.store.put('LRON:node:3', { lron_condition: { success: true, failure: true }, task_id: 'node:3', channels: [{ id: 'c' }] }, true);
    await n.store.put('LRON:node:4', { lron_condition: { success: true, failure: true }, task_id: 'node:4', channels: [{ id: 'c' }] }, true);
    await n.watch('node:3', 'indices:admin/forcemerge', ok, () => done);
    await new Promise((r) => setTimeout(r, 50));
    expect(n.store.get('LRON:node:3')).toBeDefined();
    await eventually(() => (n.store.get('LRON:node:3') === undefined ? true : undefined));
    await n.watch('node:4', 'indices:admin/forcemerge', ok, () => done);
    n.close();
    await new Promise((r) => setTimeout(r, 400));
    expect(n.store.get('LRON:node:4')).toBeDefined();
  });
});
