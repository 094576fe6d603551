// Every request is a task: an id on this node, its OpenSearch action name, the caller's
// X-Opaque-Id and start time. Its AbortController is made only when someone asks for the signal,
// so the many requests nobody cancels pay nothing for it. The tasks API reads this registry.
//
// Registering and unregistering run on every request, so the registry is an intrusive doubly
// linked list (two pointer writes each way, no hashing, nothing allocated beyond the task) and
// the start is one `performance.now()` reading (no BigInt per request).

export class Task {
  private controller: AbortController | undefined;
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
  ) {
    this.startedAt = performance.now();
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

  cancel(reason?: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
}

export class TaskManager {
  private nextId = 1;
  private head: Task | undefined;
  private count = 0;

  register(action: string, opaqueId: string | undefined, cancellable = false): Task {
    const task = new Task(this.nextId++, action, opaqueId, cancellable);
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
