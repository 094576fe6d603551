// `GET /_cat/tasks`: the running tasks (this request among them, with the per-node child it
// runs, as `_tasks` lists them), one row each; the engine renders the table.
import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';
import type { Task } from '../../tasks/task-manager';
import { selectTasks, taskFilter } from '../../tasks/task-info';
import { selectsThisNode } from '../nodes/facts';
import { factsBody } from './node-facts';

const ACTION = 'cluster:monitor/tasks/lists';

function hms(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

function taskRow(node: NodeContext, t: Task): Record<string, unknown> {
  const id = node.engine.nodeId;
  const nanos = t.runningTimeNanos();
  return {
    id: t.id,
    action: t.action,
    task_id: `${id}:${t.id}`,
    parent_task_id: t.parentId === undefined ? '-' : `${id}:${t.parentId}`,
    type: t.type,
    start_time: t.startTimeMillis,
    timestamp: hms(t.startTimeMillis),
    running_time_ns: nanos,
    running_time: { nanos },
    x_opaque_id: t.opaqueId ?? '-',
    description: t.description ?? '',
  };
}

export const catTasks: ActionSpec = {
  action: ACTION,
  routes: [route('GET', '/_cat/tasks')],
  params: ['format', 'nodes', 'actions', 'detailed', 'parent_task_id', 'h', 'help', 's', 'time', 'v'],
  output: 'text',
  run: (request, node) => {
    const p = request.params;
    const child = node.tasks.register(`${ACTION}[n]`, undefined, false, request.task);
    try {
      const tasks = selectsThisNode(node, p.nodes) ? selectTasks(node.tasks, taskFilter(p), node.engine.nodeId) : [];
      return node.engine.execute('cat:tasks', p, factsBody(node, { tasks: tasks.map((t) => taskRow(node, t)) }));
    } finally {
      node.tasks.unregister(child);
    }
  },
};
