// `SortOrder.fromString`, as plugin APIs read a sort order parameter.
import { illegalArgument } from './error-table';

/** `asc` or `desc` in any case; returns whether it is descending. Absent means ascending. */
export function parseSortOrder(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === 'asc' || v === 'desc') return v === 'desc';
  throw illegalArgument(`Unknown SortOrder [${value}]`);
}
