import { route, type ActionSpec } from '../../http/action';

export const catCount: ActionSpec = {
  action: 'indices:data/read/search',
  engineAction: 'cat:count',
  routes: [route('GET', '/_cat/count'), route('GET', '/_cat/count/:index')],
  params: ['format', 'h', 'help', 's', 'v'],
  output: 'text',
  helpLeaves: 'index',
};
