// Where a field of a JSON body is, as OpenSearch's object parsers print it in front of their
// messages (`[1:51] [reindex] unknown field [bogus]`): the field name's position for an unknown
// field, the value's for a value it cannot take. The body is read for positions only when an
// error needs one.
import { readBody, type Location, type XNode } from './xcontent';

export type Locate = (path: readonly string[], at: 'key' | 'value') => string;

export function locator(body: Buffer | undefined): Locate {
  let root: XNode | null | undefined;
  return (path, at) => {
    if (root === undefined) {
      try {
        root = readBody(body);
      } catch {
        root = null;
      }
    }
    let node: XNode | null = root;
    let loc: Location | undefined;
    for (let i = 0; i < path.length; i++) {
      if (node === null || node.kind !== 'object') return '';
      const idx = node.entries.findIndex(([k]) => k === path[i]);
      if (idx === -1) return '';
      const entry = node.entries[idx];
      if (entry === undefined) return '';
      loc = i === path.length - 1 && at === 'key' ? node.keyStarts[idx] : entry[1].start;
      node = entry[1];
    }
    return loc === undefined ? '' : `[${loc.line}:${loc.col}] `;
  };
}
