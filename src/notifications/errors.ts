// The notifications API's failures, with the notifications plugin's wording. Its transport
// actions turn every failure into an `OpenSearchStatusException` (type `status_exception`) with
// the status they chose; its REST layer's model checks are plain `illegal_argument_exception`s.
import { statusException } from '../http/error-table';
import type { OpenSearchError } from '../http/errors';

/** Kotlin's `Collection.toString()`: `[a, b]`. */
export function kotlinList(items: Iterable<string>): string {
  return `[${[...items].join(', ')}]`;
}

export function configNotFound(id: string): OpenSearchError {
  return statusException(404, `NotificationConfig ${id} not found`);
}

export function configsNotFound(ids: readonly string[]): OpenSearchError {
  return statusException(404, `NotificationConfig ${kotlinList(ids)} not found`);
}

/** A create on an id in use: the index's version conflict, as the plugin rewraps it. */
export function configExists(id: string, version: number): OpenSearchError {
  return statusException(409, `[${id}]: version conflict, document already exists (current version [${version}])`);
}

export function typeNotAcceptable(): OpenSearchError {
  return statusException(406, 'NotificationConfig with type NONE is not acceptable');
}

export function typeChanged(): OpenSearchError {
  return statusException(409, 'Config type cannot be changed after creation');
}

export function sortNotAcceptable(field: string): OpenSearchError {
  return statusException(406, `Sort on ${field} not acceptable`);
}

export function invalidRange(value: string): OpenSearchError {
  return statusException(406, `Invalid Range format ${value}, allowed format 'exact' or 'from..to'`);
}
