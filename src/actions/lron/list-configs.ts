import { route, type ActionSpec } from '../../http/action';
import { parseIntParam } from '../../http/common-params';
import { parseSortOrder } from '../../http/sort-order';
import { searchLron } from '../../lron/lron-search';
import { json, lronConfigsJson } from './render';

// `GET /_plugins/_im/lron`: the settings `queryString` (`*`) matches, `size` (20) from `from`
// (0), sorted on `sortField` (`lron_config.priority`: global settings before one-time ones) in
// `sortOrder` (`asc`).
export const lronListConfigs: ActionSpec = {
  action: 'cluster:admin/opensearch/controlcenter/lron/get',
  routes: [route('GET', '/_plugins/_im/lron')],
  params: ['size', 'from', 'sortField', 'sortOrder', 'queryString'],
  run: (request, node) => {
    const p = request.params;
    const size = parseIntParam('size', p.size, 20);
    const from = parseIntParam('from', p.from, 0);
    const descending = parseSortOrder(p.sortOrder);
    const page = searchLron(node.lron.store, node.engine.nodeId, {
      queryString: p.queryString ?? '*',
      sortField: p.sortField ?? 'lron_config.priority',
      descending,
      from,
      size,
    });
    return json(lronConfigsJson(page.hits, page.total));
  },
};
