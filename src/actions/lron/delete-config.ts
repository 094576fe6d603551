import { route, type ActionSpec } from '../../http/action';
import { controlCenterMissing } from '../../lron/errors';
import { CONTROL_CENTER_INDEX } from '../../lron/lron-store';
import { json, settingId } from './render';

// `DELETE /_plugins/_im/lron/<id>`: the index's delete answer (refreshed at once, as the plugin
// asks), `result` `deleted` or, with a 404, `not_found`.
export const lronDeleteConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/controlcenter/lron/delete',
  routes: [route('DELETE', '/_plugins/_im/lron/:id')],
  params: [],
  run: async (request, node) => {
    const id = settingId(request.params.id);
    const store = node.lron.store;
    if (!store.exists) throw controlCenterMissing();
    const r = await store.delete(id);
    return json(
      {
        _index: CONTROL_CENTER_INDEX,
        _id: id,
        _version: r.version,
        result: r.found ? 'deleted' : 'not_found',
        forced_refresh: true,
        _shards: { total: 2, successful: 1, failed: 0 },
        _seq_no: r.seqNo,
        _primary_term: 1,
      },
      r.found ? 200 : 404,
    );
  },
};
