import { route, type ActionSpec } from '../../http/action';
import { ALLOWED_CONFIG_TYPES } from '../../notifications/config-type';
import { json } from './render';

// `GET /_plugins/_notifications/features`: the config types this node takes and the plugin's
// feature flags (OpenSearch Dashboards reads both).
export const notificationsGetFeatures: ActionSpec = {
  action: 'cluster:admin/opensearch/notifications/features',
  routes: [route('GET', '/_plugins/_notifications/features')],
  params: [],
  run: () => json({ allowed_config_type_list: ALLOWED_CONFIG_TYPES, plugin_features: { tooltip_support: 'true' } }),
};
