import { route, type ActionSpec } from '../../http/action';

// `GET [/<target>]/_recovery`: how each open shard came to be open (created empty, or opened
// from its own files with the translog operations it replayed).
export const indicesRecovery: ActionSpec = {
  action: 'indices:monitor/recovery',
  routes: [route('GET', '/_recovery'), route('GET', '/:index/_recovery')],
  params: ['active_only', 'detailed', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
