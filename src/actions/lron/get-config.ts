import { route, type ActionSpec } from '../../http/action';
import { controlCenterMissing, lronNotFound } from '../../lron/errors';
import { json, lronConfigsJson, settingId } from './render';

// `GET /_plugins/_im/lron/<id>`: one setting, in the list's shape.
export const lronGetConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/controlcenter/lron/get',
  routes: [route('GET', '/_plugins/_im/lron/:id')],
  params: [],
  run: (request, node) => {
    const id = settingId(request.params.id);
    const store = node.lron.store;
    if (!store.exists) throw controlCenterMissing();
    const doc = store.get(id);
    if (doc === undefined) throw lronNotFound(id);
    return json(lronConfigsJson([[id, doc]], 1));
  },
};
