// The notification settings API's answers.
import type { EngineResponse } from '../../engine';
import { DOC_ID_PREFIX, lronConfigJson } from '../../lron/lron-config';
import type { StoredLron } from '../../lron/lron-store';
import { invalidLronId } from '../../lron/errors';

export { jsonResponse as json } from '../../http/json-response';

/** `{"lron_configs": [{"_id", "lron_config"}…], "total_number"}`. */
export function lronConfigsJson(hits: ReadonlyArray<[string, StoredLron]>, total: number): Record<string, unknown> {
  return { lron_configs: hits.map(([id, doc]) => ({ _id: id, lron_config: lronConfigJson(doc.lron_config) })), total_number: total };
}

/** The id in a GET or DELETE path, which must be a setting's. */
export function settingId(id: string | undefined): string {
  if (id === undefined || !id.startsWith(DOC_ID_PREFIX)) throw invalidLronId();
  return id;
}
