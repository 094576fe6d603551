import { route, type ActionSpec } from '../../http/action';
import { parseBoolParam } from '../../http/common-params';
import { readBody } from '../../http/xcontent';
import { docIdMismatch, unknownTaskNode } from '../../lron/errors';
import { docIdOf, lronConfigJson, parseLronBody, parseTaskId } from '../../lron/lron-config';
import { json } from './render';

// `POST /_plugins/_im/lron` creates a setting (409 if its id is in use); `PUT
// /_plugins/_im/lron/<id>` creates or replaces the one the body names, which must be `<id>`
// (a `/` in it written `%2F`). A task's setting must name a task of this node. `dry_run=true`
// checks everything and answers without writing.
export const lronPutConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/controlcenter/lron/write',
  routes: [route('POST', '/_plugins/_im/lron'), route('PUT', '/_plugins/_im/lron/:id')],
  params: ['dry_run'],
  run: async (request, node) => {
    const p = request.params;
    const dryRun = parseBoolParam('dry_run', p.dry_run);
    const config = parseLronBody(readBody(request.body));
    const id = docIdOf(config);
    if (p.id !== undefined && p.id !== id) throw docIdMismatch();
    if (config.task_id !== undefined && parseTaskId(config.task_id).node !== node.engine.nodeId) throw unknownTaskNode();
    if (!dryRun) await node.lron.store.put(id, config, p.id === undefined);
    return json({ _id: id, lron_config: lronConfigJson(config) });
  },
};
