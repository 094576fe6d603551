import { route, type ActionSpec } from '../../http/action';
import { indexNotFound } from '../../http/error-table';
import { matches } from '../../security/wildcard';
import { TASK_RESULTS_INDEX } from '../../tasks/task-results';

const ACTION = 'indices:admin/delete';

// `DELETE /<index>`. Kept task results are OpenSearch's `.tasks` index, which a delete naming it
// (or a wildcard that takes hidden indices) removes there; here it empties the kept results, so
// a client clearing them the OpenSearch way gets the same effect.
export const indicesDelete: ActionSpec = {
  action: ACTION,
  routes: [route('DELETE', '/:index'), route('DELETE', '/')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
  run: async (request, node) => {
    const p = request.params;
    if (p.index === undefined) return node.engine.execute(ACTION, p, request.body);
    const names = p.index.split(',');
    const others = names.filter((n) => n !== TASK_RESULTS_INDEX);
    const named = others.length < names.length;
    const hidden = (p.expand_wildcards ?? '').split(',').some((w) => w === 'all' || w === 'hidden');
    const takesResults = named || (hidden && others.some((n) => n.includes('*') && !n.startsWith('-') && matches(n, TASK_RESULTS_INDEX)));
    if (others.length === 0) {
      if (!node.taskResults.exists) throw indexNotFound(TASK_RESULTS_INDEX);
      await node.taskResults.clear();
      return { status: 200, body: Buffer.from('{"acknowledged":true}') };
    }
    const r = await node.engine.execute(ACTION, { ...p, index: others.join(',') }, request.body);
    if (takesResults && r.status === 200) await node.taskResults.clear();
    return r;
  },
};
