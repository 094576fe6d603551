// JSON that keeps numbers as their source text, so longs past 2^53 survive filter_path and
// pretty printing byte for byte.

export class RawNumber {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | string | RawNumber | JsonValue[] | { [k: string]: JsonValue };

export function parseJson(text: string): JsonValue {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const value = (): JsonValue => {
    ws();
    const c = text.charAt(i);
    if (c === '{') {
      i++;
      const obj: Record<string, JsonValue> = {};
      ws();
      if (text.charAt(i) === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        const k = str();
        ws();
        i++; // :
        obj[k] = value();
        ws();
        if (text.charAt(i++) === '}') return obj;
      }
    }
    if (c === '[') {
      i++;
      const arr: JsonValue[] = [];
      ws();
      if (text.charAt(i) === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text.charAt(i++) === ']') return arr;
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const start = i;
    while (i < text.length && /[-+0-9.eE]/.test(text.charAt(i))) i++;
    if (start === i) throw new SyntaxError(`Unexpected character at ${i}`);
    return new RawNumber(text.slice(start, i));
  };
  const str = (): string => {
    const start = i;
    i++;
    while (text.charAt(i) !== '"') {
      if (text.charAt(i) === '\\') i++;
      i++;
      if (i > text.length) throw new SyntaxError('Unterminated string');
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  return value();
}

/** Jackson's default pretty printer, as OpenSearch emits `?pretty`. */
export function stringifyJson(v: JsonValue, pretty: boolean, indent = ''): string {
  if (v === null) return 'null';
  if (v instanceof RawNumber) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return pretty ? '[ ]' : '[]';
    const items = v.map((x) => stringifyJson(x, pretty, inner));
    return pretty ? `[ ${items.join(', ')} ]` : `[${items.join(',')}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return pretty ? '{ }' : '{}';
  if (!pretty) return `{${keys.map((k) => `${JSON.stringify(k)}:${stringifyJson(v[k] as JsonValue, false)}`).join(',')}}`;
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)} : ${stringifyJson(v[k] as JsonValue, true, inner)}`).join(',\n')}\n${indent}}`;
}
