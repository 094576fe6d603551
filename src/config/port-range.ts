// `http.port`: one port (`9200`) or a range (`9200-9300`, bind to the first free one).
import { OpenSearchError } from '../http/errors';

export interface PortRange {
  readonly from: number;
  readonly to: number;
}

function bad(value: string, key: string, detail?: string): OpenSearchError {
  const reason = `Failed to parse value [${value}] for setting [${key}]${detail === undefined ? '' : `: ${detail}`}`;
  return new OpenSearchError(400, 'illegal_argument_exception', reason, {}, detail === undefined ? { type: 'number_format_exception', reason: `For input string: "${value}"` } : undefined);
}

export function parsePortRange(value: string, key = 'http.port'): PortRange {
  const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(value);
  if (m === null) throw bad(value, key);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (from > 65535 || to > 65535) throw bad(value, key, 'ports must be between 0 and 65535');
  if (from > to) throw bad(value, key, `the range starts at [${from}], above its end [${to}]`);
  return { from, to };
}

/** The ports of a range, in the order they are tried. */
export function* portsOf(range: PortRange): Generator<number> {
  for (let p = range.from; p <= range.to; p++) yield p;
}
