import { route, type ActionSpec } from '../../http/action';
import { parseIntParam } from '../../http/common-params';
import { parseSortOrder } from '../../http/sort-order';
import { FILTER_PARAMS, queryConfigs } from '../../notifications/config-query';
import { configNotFound, configsNotFound } from '../../notifications/errors';
import { configInfoJson, json, searchResults } from './render';

/** OpenSearch's default page of configs (`DEFAULT_MAX_ITEMS`). */
const DEFAULT_MAX_ITEMS = 1000;

// `GET /_plugins/_notifications/configs/<id>`, or `GET …/configs` with `config_id`,
// `config_id_list`, or else filters (the plugin's: `config_type=slack,chime`, `is_enabled`,
// `name`, `slack.url`, `created_time_ms=from..to`, …), `sort_field`, `sort_order`,
// `from_index` and `max_items` (1000). Quarry refuses a `from_index` or `max_items` that is not a
// number where OpenSearch would quietly use its default.
export const notificationsGetConfigs: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/configs/get',
  routes: [route('GET', '/_plugins/_notifications/configs/:config_id'), route('GET', '/_plugins/_notifications/configs')],
  params: ['config_id', 'config_id_list', 'from_index', 'max_items', 'sort_field', 'sort_order', ...FILTER_PARAMS],
  run: (request, node) => {
    const p = request.params;
    const descending = parseSortOrder(p.sort_order);
    const from = parseIntParam('from_index', p.from_index, 0);
    const size = parseIntParam('max_items', p.max_items, DEFAULT_MAX_ITEMS);
    const ids = new Set<string>(p.config_id_list === undefined ? [] : p.config_id_list.split(','));
    if (p.config_id !== undefined) ids.add(p.config_id);
    const store = node.notifications.store;
    if (ids.size > 0) {
      const docs = [...ids].map((id) => [id, store.get(id)] as const);
      const missing = docs.filter(([, doc]) => doc === undefined).map(([id]) => id);
      if (missing.length > 0) throw ids.size === 1 ? configNotFound(missing[0] as string) : configsNotFound(missing);
      const found = docs.flatMap(([id, doc]) => (doc === undefined ? [] : [configInfoJson(id, doc)]));
      return json(searchResults(0, found.length, 'config_list', found));
    }
    const filters = FILTER_PARAMS.filter((f) => p[f] !== undefined).map((f) => [f, p[f] as string] as const);
    const page = queryConfigs(store.entries(), { filters, sortField: p.sort_field, descending, from, size });
    return json(searchResults(from, page.total, 'config_list', page.hits.map(([id, doc]) => configInfoJson(id, doc))));
  },
};
