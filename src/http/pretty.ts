import { encodeJsonString, type JsonNode } from './raw-json';

/**
 * Pretty JSON exactly as OpenSearch prints it for `?pretty`: Jackson's DefaultPrettyPrinter with a
 * two-space indenter for both objects and arrays, `"key" : value`, empty containers as `{ }` and
 * `[ ]`, and a line feed after the document.
 *
 * ```
 * {
 *   "a" : [
 *     1,
 *     { }
 *   ],
 *   "b" : [ ]
 * }
 * ```
 */
export function stringifyPretty(node: JsonNode): string {
  const out: string[] = [];
  write(node, 0, out);
  out.push('\n');
  return out.join('');
}

function indent(level: number): string {
  return '\n' + '  '.repeat(level);
}

function write(node: JsonNode, level: number, out: string[]): void {
  switch (node.kind) {
    case 'scalar':
      out.push(node.raw);
      return;
    case 'array': {
      if (node.items.length === 0) {
        out.push('[ ]');
        return;
      }
      const inner = indent(level + 1);
      out.push('[');
      node.items.forEach((item, i) => {
        out.push(i > 0 ? ',' + inner : inner);
        write(item, level + 1, out);
      });
      out.push(indent(level), ']');
      return;
    }
    case 'object': {
      if (node.keys.length === 0) {
        out.push('{ }');
        return;
      }
      const inner = indent(level + 1);
      out.push('{');
      node.keys.forEach((key, i) => {
        out.push(i > 0 ? ',' + inner : inner, encodeJsonString(key), ' : ');
        write(node.values[i] as JsonNode, level + 1, out);
      });
      out.push(indent(level), '}');
    }
  }
}

// The pipeline imports the response shaper from here.
export { shapeResponse } from './shape-response';
