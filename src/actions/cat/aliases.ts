import { route, type ActionSpec } from '../../http/action';

export const catAliases: ActionSpec = {
  action: 'cluster:monitor/state',
  engineAction: 'cat:aliases',
  routes: [route('GET', '/_cat/aliases'), route('GET', '/_cat/aliases/:name')],
  params: ['format', 'local', 'h', 'help', 's', 'v', 'expand_wildcards'],
  output: 'text',
  helpLeaves: 'alias',
};
