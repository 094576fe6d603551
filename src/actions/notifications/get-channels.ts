import { route, type ActionSpec } from '../../http/action';
import { CHANNEL_TYPES } from '../../notifications/config-type';
import { queryConfigs } from '../../notifications/config-query';
import { json, searchResults } from './render';

// `GET /_plugins/_notifications/channels`: the configs a message can be sent to (not email
// accounts or groups), each as id, name, description, type and whether it is enabled.
export const notificationsGetChannels: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/channels/get',
  routes: [route('GET', '/_plugins/_notifications/channels')],
  params: [],
  run: (_request, node) => {
    const page = queryConfigs(node.notifications.store.entries(), {
      filters: [['config_type', CHANNEL_TYPES.join(',')]],
      sortField: undefined,
      descending: false,
      from: 0,
      size: 1000,
    });
    const channels = page.hits.map(([id, doc]) => ({
      config_id: id,
      name: doc.config.name,
      description: doc.config.description,
      config_type: doc.config.config_type,
      is_enabled: doc.config.is_enabled,
    }));
    return json(searchResults(0, page.total, 'channel_list', channels));
  },
};
