// `_cat` tables of things Quarry never has: cluster-state tasks waiting on a cluster manager
// (it applies every change at once), fielddata (text fields are not loaded into memory), and
// snapshot repositories. OpenSearch answers these with the header alone when it has none.
import { route, type ActionSpec } from '../../http/action';

const COMMON = ['format', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 's', 'v'] as const;

export const catPendingTasks: ActionSpec = {
  action: 'cluster:monitor/task',
  engineAction: 'cat:pending_tasks',
  routes: [route('GET', '/_cat/pending_tasks')],
  params: [...COMMON, 'time'],
  output: 'text',
};

export const catFielddata: ActionSpec = {
  action: 'cluster:monitor/nodes/stats',
  engineAction: 'cat:fielddata',
  routes: [route('GET', '/_cat/fielddata'), route('GET', '/_cat/fielddata/:fields')],
  params: [...COMMON, 'bytes', 'fields'],
  output: 'text',
  helpLeaves: 'fields',
};

export const catRepositories: ActionSpec = {
  action: 'cluster:admin/repository/get',
  engineAction: 'cat:repositories',
  routes: [route('GET', '/_cat/repositories')],
  params: [...COMMON],
  output: 'text',
};
