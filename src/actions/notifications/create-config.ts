import { route, type ActionSpec } from '../../http/action';
import { illegalArgument } from '../../http/error-table';
import { expectObject, readBody, textOrNull } from '../../http/xcontent';
import { checkConfig } from '../../notifications/config-checks';
import { parseNotificationConfig, type NotificationConfig } from '../../notifications/notification-config';
import { validateId } from '../../notifications/validation';
import { json } from './render';

// `POST /_plugins/_notifications/configs` `{"config_id"?, "config": {…}}` → `{"config_id"}`.
// Without an id the node makes one; an id in use is a 409.
export const notificationsCreateConfig: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/configs/create',
  routes: [route('POST', '/_plugins/_notifications/configs')],
  params: [],
  run: async (request, node) => {
    let id: string | null = null;
    let config: NotificationConfig | undefined;
    for (const [key, value] of expectObject(readBody(request.body)).entries) {
      if (key === 'config_id') id = textOrNull(value);
      else if (key === 'config') config = parseNotificationConfig(value);
    }
    if (config === undefined) throw illegalArgument('config field absent');
    if (id !== null) validateId(id);
    const store = node.notifications.store;
    checkConfig(config, store);
    const created = await store.create(id ?? undefined, config, Date.now());
    return json({ config_id: created });
  },
};
