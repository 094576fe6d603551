// Every request is a task: an id on this node, its OpenSearch action name, the caller's
// X-Opaque-Id and start time. Its AbortController is made only when someone asks for the signal,
// so the many requests nobody cancels pay nothing for it. The tasks API reads this registry.

export class Task {
  private controller: AbortController | undefined;

  constructor(
    readonly id: number,
    readonly action: string,
    readonly opaqueId: string | undefined,
    readonly cancellable: boolean,
    readonly startTimeMillis: number = Date.now(),
    readonly startNanos: bigint = process.hrtime.bigint(),
  ) {}

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  cancel(reason?: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
}

export class TaskManager {
  private nextId = 1;
  private readonly running = new Map<number, Task>();

  register(action: string, opaqueId: string | undefined, cancellable = false): Task {
    const task = new Task(this.nextId++, action, opaqueId, cancellable);
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
