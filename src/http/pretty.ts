// Response shaping for ?pretty and ?filter_path. The hot path (neither asked) returns the
// engine's bytes untouched.
import { parseJson, stringifyJson } from './json';
import { filterPath } from './filter-path';

export function shapeResponse(body: Buffer, opts: { pretty: boolean; filterPath: string | undefined }): Buffer {
  if (!opts.pretty && opts.filterPath === undefined) return body;
  if (body.length === 0) return body;
  let value = parseJson(body.toString('utf8'));
  if (opts.filterPath !== undefined) value = filterPath(value, opts.filterPath);
  const text = stringifyJson(value, opts.pretty);
  return Buffer.from(opts.pretty ? `${text}\n` : text);
}
