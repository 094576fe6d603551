// Every request is a task: an id on this node, its OpenSearch action name, the caller's
// X-Opaque-Id, start time and an AbortController the engine can observe. The tasks API reads
// this registry.

export interface Task {
  readonly id: number;
  readonly action: string;
  readonly startTimeMillis: number;
  readonly startNanos: bigint;
  readonly opaqueId: string | undefined;
  readonly cancellable: boolean;
  readonly controller: AbortController;
}

export class TaskManager {
  private nextId = 1;
  private readonly running = new Map<number, Task>();

  register(action: string, opaqueId: string | undefined, cancellable = false): Task {
    const task: Task = {
      id: this.nextId++,
      action,
      startTimeMillis: Date.now(),
      startNanos: process.hrtime.bigint(),
      opaqueId,
      cancellable,
      controller: new AbortController(),
    };
    this.running.set(task.id, task);
    return task;
  }

  unregister(task: Task): void {
    this.running.delete(task.id);
  }

  list(): Task[] {
    return [...this.running.values()];
  }
}
