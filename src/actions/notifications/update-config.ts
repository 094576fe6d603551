import { route, type ActionSpec } from '../../http/action';
import { illegalArgument, validationFailed } from '../../http/error-table';
import { expectObject, readBody, textOf } from '../../http/xcontent';
import { checkConfig } from '../../notifications/config-checks';
import { configNotFound, typeChanged } from '../../notifications/errors';
import { parseNotificationConfig, type NotificationConfig } from '../../notifications/notification-config';
import { json } from './render';

// `PUT /_plugins/_notifications/configs/<id>` `{"config": {…}}` → `{"config_id"}`. As in
// OpenSearch, a `config_id` in the body names the config instead of the path's, and a config's
// type cannot change.
export const notificationsUpdateConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/configs/update',
  routes: [route('PUT', '/_plugins/_notifications/configs/:config_id')],
  params: [],
  run: async (request, node) => {
    let id = request.params.config_id ?? '';
    let config: NotificationConfig | undefined;
    for (const [key, value] of expectObject(readBody(request.body)).entries) {
      if (key === 'config_id') id = textOf(value);
      else if (key === 'config') config = parseNotificationConfig(value);
    }
    if (config === undefined) throw illegalArgument('config field absent');
    if (id === '') throw validationFailed(['configId is null or empty']);
    const store = node.notifications.store;
    checkConfig(config, store);
    const current = store.get(id);
    if (current === undefined) throw configNotFound(id);
    if (current.config.config_type !== config.config_type) throw typeChanged();
    await store.update(id, current, config, Date.now());
    return json({ config_id: id });
  },
};
