import { route, type ActionSpec } from '../../http/action';
import { eventSource } from '../../notifications/notification-event';
import { delivered, deliveryFailure } from '../../notifications/notifications';
import { json } from './render';

// `POST|GET /_plugins/_notifications/feature/test/<id>` (GET is the deprecated form OpenSearch
// still serves): sends the plugin's test message to the channel and answers with the event and
// its delivery status, or fails with the statuses when delivery did not succeed.
export const notificationsSendTest: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/test_notification',
  routes: [route('POST', '/_plugins/_notifications/feature/test/:config_id'), route('GET', '/_plugins/_notifications/feature/test/:config_id')],
  params: [],
  run: async (request, node) => {
    const id = request.params.config_id ?? '';
    const event = await node.notifications.send([id], eventSource(`Test Message Title-${id}`, id), {
      title: `Test Message Title-${id}`,
      text: `Test message content body for config id ${id}`,
    });
    if (!delivered(event)) throw deliveryFailure(event);
    return json(event);
  },
};
