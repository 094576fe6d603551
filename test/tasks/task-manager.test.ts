import { describe, expect, it } from 'vitest';
import { TaskManager } from '../../src/tasks/task-manager';

describe('TaskManager', () => {
  it('lists running tasks oldest first and forgets finished ones', () => {
    const tasks = new TaskManager();
    const a = tasks.register('indices:data/read/search', undefined);
    const b = tasks.register('indices:data/write/bulk', 'my-id');
    const c = tasks.register('cluster:monitor/main', undefined);
    expect(tasks.list().map((t) => t.id)).toEqual([a.id, b.id, c.id]);
    expect(b.opaqueId).toBe('my-id');
    tasks.unregister(b);
    expect(tasks.list().map((t) => t.id)).toEqual([a.id, c.id]);
    tasks.unregister(c);
    tasks.unregister(a);
    expect(tasks.list()).toEqual([]);
    expect(tasks.size).toBe(0);
  });

  it('ignores a second unregister of the same task', () => {
    const tasks = new TaskManager();
    const a = tasks.register('a', undefined);
    const b = tasks.register('b', undefined);
    tasks.unregister(a);
    tasks.unregister(a);
    expect(tasks.list()).toEqual([b]);
    expect(tasks.size).toBe(1);
  });

  it('gives ids in order and a start time from the wall clock', () => {
    const tasks = new TaskManager();
    const before = Date.now();
    const a = tasks.register('a', undefined);
    const b = tasks.register('b', undefined);
    expect(b.id).toBe(a.id + 1);
    expect(Math.abs(a.startTimeMillis - before)).toBeLessThan(1000);
    expect(a.runningTimeNanos()).toBeGreaterThanOrEqual(0);
  });

  it('makes the abort signal on demand and cancels through it', () => {
    const tasks = new TaskManager();
    const a = tasks.register('a', undefined, true);
    const signal = a.signal;
    expect(signal.aborted).toBe(false);
    a.cancel('stop');
    expect(signal.aborted).toBe(true);
  });

  it('remembers why a task was cancelled, keeping the first reason', () => {
    const tasks = new TaskManager();
    const a = tasks.register('a', undefined, true);
    expect(a.cancelled).toBe(false);
    a.cancel('by user request');
    a.cancel('again');
    expect(a.cancelled).toBe(true);
    expect(a.cancelReason).toBe('by user request');
  });

  it('finds running tasks by id and links children to their parent', () => {
    const tasks = new TaskManager();
    const parent = tasks.register('cluster:monitor/tasks/lists', undefined);
    const child = tasks.register('cluster:monitor/tasks/lists[n]', undefined, false, parent);
    expect(child).toMatchObject({ parentId: parent.id, type: 'direct' });
    expect(parent).toMatchObject({ parentId: undefined, type: 'transport' });
    expect(tasks.get(child.id)).toBe(child);
    tasks.unregister(child);
    expect(tasks.get(child.id)).toBeUndefined();
  });

  it('settles done() when the task ends, and at once after', async () => {
    const tasks = new TaskManager();
    const a = tasks.register('a', undefined);
    let ended = false;
    const waiting = a.done().then(() => {
      ended = true;
    });
    await Promise.resolve();
    expect(ended).toBe(false);
    tasks.unregister(a);
    await waiting;
    expect(ended).toBe(true);
    expect(a.isEnded).toBe(true);
    await a.done();
  });
});
