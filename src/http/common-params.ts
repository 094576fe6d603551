// Universal parameters, parsed with OpenSearch's rules.
import { badBoolean } from './error-table';

/** `?pretty` (empty) means true; otherwise only `true` / `false`. */
export function parseBoolParam(_name: string, value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw badBoolean(value);
}
