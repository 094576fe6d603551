// The notifications API's answers: JSON bodies, and the paged result shape its lists share
// (common-utils' SearchResults).
import type { EngineResponse } from '../../engine';
import type { StoredConfig } from '../../notifications/config-store';
import { notificationConfigJson } from '../../notifications/notification-config';

export { jsonResponse as json } from '../../http/json-response';

/** `NotificationConfigInfo`: id, update and creation times, the config. */
export function configInfoJson(id: string, doc: StoredConfig): Record<string, unknown> {
  return { config_id: id, last_updated_time_ms: doc.last_updated_time_ms, created_time_ms: doc.created_time_ms, config: notificationConfigJson(doc.config) };
}

/** `{"start_index", "total_hits", "total_hit_relation": "eq", <list>: […]}`. */
export function searchResults(start: number, total: number, listName: string, items: readonly unknown[]): Record<string, unknown> {
  return { start_index: start, total_hits: total, total_hit_relation: 'eq', [listName]: items };
}
