// Every request is a task: an id on this node, its OpenSearch action name, the caller's
// X-Opaque-Id and start time. Its AbortController is made only when someone asks for the signal,
// so the many requests nobody cancels pay nothing for it. The tasks API reads this registry.
//
// Registering and unregistering run on every request, so the registry is an intrusive doubly
// linked list (two pointer writes each way, no hashing, nothing allocated beyond the task) and
// the start is one `performance.now()` reading (no BigInt per request).

export type TaskType = 'transport' | 'direct';

export class Task {
  private controller: AbortController | undefined;
  /** Why it was cancelled, once it is. */
  cancelReason: string | undefined;
  /** Its request runs in the engine under this task's id (so a cancel must reach the engine). */
  inEngine = false;
  /** What it works on, for `detailed` listings (`reindex from [a] to [b]`); empty when unset. */
  description: string | undefined = undefined;
  /** Progress a long-running task reports as its `status` (a reindex's counts). */
  status: (() => Record<string, unknown>) | undefined = undefined;
  /** Resolves the promises of those waiting for it to end (made only when someone waits). */
  private finish: (() => void) | undefined;
  private finished: Promise<void> | undefined;
  private over = false;
  /** @internal registry links */
  prev: Task | undefined;
  /** @internal registry links */
  next: Task | undefined;
  /** `performance.now()` at registration. */
  private readonly startedAt: number;

  constructor(
    readonly id: number,
    readonly action: string,
    readonly opaqueId: string | undefined,
    readonly cancellable: boolean,
    /** The task this one works for (OpenSearch's per-node `[n]` children). */
    readonly parentId: number | undefined = undefined,
    readonly type: TaskType = 'transport',
  ) {
    this.startedAt = performance.now();
  }

  get cancelled(): boolean {
    return this.cancelReason !== undefined;
  }

  /** Settles once the task is unregistered. */
  done(): Promise<void> {
    if (this.over) return Promise.resolve();
    this.finished ??= new Promise<void>((resolve) => {
      this.finish = resolve;
    });
    return this.finished;
  }

  /** Whether it has ended (been unregistered). */
  get isEnded(): boolean {
    return this.over;
  }

  /** @internal called by the registry when the task ends */
  markEnded(): void {
    this.over = true;
    this.finish?.();
  }

  /** Wall-clock start, as the tasks API prints `start_time_in_millis`. */
  get startTimeMillis(): number {
    return Math.floor(performance.timeOrigin + this.startedAt);
  }

  /** `running_time_in_nanos` (microsecond resolution). */
  runningTimeNanos(): number {
    return Math.round((performance.now() - this.startedAt) * 1e6);
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  cancel(reason: string): void {
    this.cancelReason ??= reason;
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
}

export class TaskManager {
  /** Ids count on from `firstId`: a restarted node must not reuse the id of a result it kept. */
  constructor(private nextId = 1) {}

  private head: Task | undefined;
  private count = 0;

  register(action: string, opaqueId: string | undefined, cancellable = false, parent?: Task): Task {
    const task =
      parent === undefined
        ? new Task(this.nextId++, action, opaqueId, cancellable)
        : new Task(this.nextId++, action, opaqueId, cancellable, parent.id, 'direct');
    task.next = this.head;
    if (this.head !== undefined) this.head.prev = task;
    this.head = task;
    this.count++;
    return task;
  }

  unregister(task: Task): void {
    // Only a registered task has links or is the head; a second unregister changes nothing.
    if (task.prev === undefined && this.head !== task) return;
    if (task.prev !== undefined) task.prev.next = task.next;
    else this.head = task.next;
    if (task.next !== undefined) task.next.prev = task.prev;
    task.prev = undefined;
    task.next = undefined;
    this.count--;
    task.markEnded();
  }

  /** The running task with this id. */
  get(id: number): Task | undefined {
    for (let t = this.head; t !== undefined; t = t.next) if (t.id === id) return t;
    return undefined;
  }

  get size(): number {
    return this.count;
  }

  /** Running tasks, oldest first. */
  list(): Task[] {
    const out: Task[] = [];
    for (let t = this.head; t !== undefined; t = t.next) out.push(t);
    return out.reverse();
  }
}
