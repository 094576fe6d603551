import { route, type ActionSpec } from '../../http/action';

export const catHealth: ActionSpec = {
  action: 'cluster:monitor/health',
  engineAction: 'cat:health',
  routes: [route('GET', '/_cat/health')],
  params: ['format', 'local', 'h', 'help', 's', 'v', 'ts', 'time'],
  output: 'text',
};
