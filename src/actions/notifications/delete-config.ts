import { route, type ActionSpec } from '../../http/action';
import { OpenSearchError } from '../../http/errors';
import { configNotFound, configsNotFound } from '../../notifications/errors';
import { json } from './render';

/**
 * Neither id given. OpenSearch answers this 400 as plain text; Quarry keeps its words in the
 * bare JSON error shape its other routing failures use.
 */
function idRequired(): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', 'either config_id or config_id_list is required', {}, undefined, { plain: true });
}

// `DELETE /_plugins/_notifications/configs/<id>` or `DELETE …/configs?config_id_list=a,b` →
// `{"delete_response_list": {"<id>": "OK"}}`. `config_id_list`, when given, is what is deleted;
// one missing id fails the whole request and deletes nothing.
export const notificationsDeleteConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/configs/delete',
  routes: [route('DELETE', '/_plugins/_notifications/configs/:config_id'), route('DELETE', '/_plugins/_notifications/configs')],
  params: ['config_id', 'config_id_list'],
  run: async (request, node) => {
    const p = request.params;
    const listed = p.config_id_list === undefined ? [p.config_id ?? ''] : p.config_id_list.split(',');
    const ids = [...new Set(listed.map((id) => id.trim()).filter((id) => id !== ''))];
    if (ids.length === 0) throw idRequired();
    const store = node.notifications.store;
    const missing = ids.filter((id) => store.get(id) === undefined);
    if (missing.length > 0) throw ids.length === 1 ? configNotFound(missing[0] as string) : configsNotFound(missing);
    const statuses: Record<string, string> = {};
    for (const id of ids) statuses[id] = (await store.delete(id)) ? 'OK' : 'NOT_FOUND';
    return json({ delete_response_list: statuses });
  },
};
