import { applyFilterPath, compileFilterPath } from './filter-path';
import { stringifyPretty } from './pretty';
import { JsonSyntaxError, parseJson, stringifyCompact } from './raw-json';

export interface ShapeOptions {
  readonly pretty: boolean;
  readonly filterPath: string | undefined;
}

/**
 * Applies `filter_path` and `pretty` to a JSON response body.
 *
 * Hot path: when neither is asked for, the very same Buffer comes back with no work done. Otherwise
 * the body is parsed into a tree that keeps numbers as their source text (longs past 2^53 survive),
 * filtered, and written compact or pretty (pretty ends with a line feed, as OpenSearch's does).
 * A body that is not JSON (e.g. a _cat text table) is returned untouched.
 */
export function shapeResponse(body: Buffer, opts: ShapeOptions): Buffer {
  if (!opts.pretty && opts.filterPath === undefined) return body;
  const filter = opts.filterPath === undefined ? undefined : compileFilterPath(opts.filterPath);
  if (!opts.pretty && filter === undefined) return body;
  if (body.length === 0) return body;
  let tree;
  try {
    tree = parseJson(body);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return body;
    throw e;
  }
  if (filter !== undefined) {
    tree = applyFilterPath(tree, filter);
    // A root array that filtering empties (e.g. _cat with format=json) leaves no body at all,
    // as OpenSearch's filtering generator writes nothing then.
    if (tree.kind === 'array' && tree.items.length === 0) return Buffer.alloc(0);
  }
  return Buffer.from(opts.pretty ? stringifyPretty(tree) : stringifyCompact(tree), 'utf8');
}
