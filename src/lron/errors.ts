// The notification settings API's failures, with index-management's wording.
import { illegalArgument, statusException, validationFailed } from '../http/error-table';
import { OpenSearchError } from '../http/errors';
import { CONTROL_CENTER_INDEX } from './lron-store';

/** GET or DELETE of an id that is not a setting's (`LRON:…`). */
export function invalidLronId(): OpenSearchError {
  return validationFailed(['Invalid LRONConfig ID']);
}

export function lronNotFound(id: string): OpenSearchError {
  return statusException(404, `lronConfig ${id} not found`);
}

/** A read of the settings before the first one was written: their index does not exist yet. */
export function controlCenterMissing(): OpenSearchError {
  return new OpenSearchError(404, 'index_not_found_exception', `no such index [${CONTROL_CENTER_INDEX}]`, {
    index: CONTROL_CENTER_INDEX,
    'resource.id': CONTROL_CENTER_INDEX,
    'resource.type': 'index_expression',
    index_uuid: '_na_',
  });
}

/** A task id whose node is not this node (the only node of its cluster). */
export function unknownTaskNode(): OpenSearchError {
  return illegalArgument('Illegal taskID. NodeID not exists.');
}

/** `PUT /_plugins/_im/lron/<id>` whose body makes another id. */
export function docIdMismatch(): OpenSearchError {
  return illegalArgument("docId isn't match with lron_config");
}
