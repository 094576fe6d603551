/**
 * A JSON tree that keeps every scalar as the exact text it will be written back as.
 *
 * Used only off the hot path (filter_path, pretty, error envelopes from engine JSON). Numbers stay
 * raw text, so a long above 2^53 or a float like 1.00000000000000000001 round-trips byte for byte.
 * Objects keep their keys in document order (plain JS objects would move integer-like keys first).
 * Strings are re-encoded the way OpenSearch's Jackson generator writes them: only `"`, `\` and
 * control characters are escaped (`\b \t \n \f \r`, other controls as `\u00XX` upper-case hex);
 * non-ASCII and `/` are written as they are.
 */

export type JsonNode = JsonObject | JsonArray | JsonScalar;

export interface JsonObject {
  readonly kind: 'object';
  /** Decoded keys, in document order (duplicates kept as they came). */
  readonly keys: string[];
  readonly values: JsonNode[];
}

export interface JsonArray {
  readonly kind: 'array';
  readonly items: JsonNode[];
}

export interface JsonScalar {
  readonly kind: 'scalar';
  /** The JSON text written for this value: `"str"`, `12345678901234567890`, `true`, `null`. */
  readonly raw: string;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const HEX = '0123456789ABCDEF';

/** Encodes a string as Jackson does (see the file comment). */
export function encodeJsonString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    if (i > start) out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0d:
        out += '\\r';
        break;
      default:
        out += '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    }
  }
  if (start < s.length) out += s.slice(start);
  return out + '"';
}

export function scalar(raw: string): JsonScalar {
  return { kind: 'scalar', raw };
}

/** Builds a tree node from a plain JS value (numbers via JSON, so only for safe numbers). */
export function fromValue(value: unknown): JsonNode {
  if (value === null || value === undefined) return scalar('null');
  if (typeof value === 'string') return scalar(encodeJsonString(value));
  if (typeof value === 'number') return scalar(Number.isFinite(value) ? String(value) : 'null');
  if (typeof value === 'bigint') return scalar(value.toString());
  if (typeof value === 'boolean') return scalar(value ? 'true' : 'false');
  if (isJsonNode(value)) return value;
  if (Array.isArray(value)) return { kind: 'array', items: value.map(fromValue) };
  if (typeof value === 'object') {
    const keys: string[] = [];
    const values: JsonNode[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      keys.push(k);
      values.push(fromValue(v));
    }
    return { kind: 'object', keys, values };
  }
  return scalar(encodeJsonString(String(value)));
}

export function isJsonNode(value: unknown): value is JsonNode {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (
    (kind === 'scalar' && typeof (value as JsonScalar).raw === 'string') ||
    (kind === 'array' && Array.isArray((value as JsonArray).items)) ||
    (kind === 'object' && Array.isArray((value as JsonObject).keys))
  );
}

/** Parses one JSON document (surrounding whitespace allowed). Throws JsonSyntaxError. */
export function parseJson(input: Buffer | string): JsonNode {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const p = new Parser(text);
  p.skipWs();
  const node = p.value(0);
  p.skipWs();
  if (p.pos !== text.length) p.fail('unexpected trailing content');
  return node;
}

const MAX_DEPTH = 1000;

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(msg: string): never {
    throw new JsonSyntaxError(`${msg} at offset ${this.pos}`, this.pos);
  }

  skipWs(): void {
    const s = this.s;
    let i = this.pos;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const c = this.s.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.object(depth);
      case 0x5b: // [
        return this.array(depth);
      case 0x22: // "
        return scalar(this.string());
      case 0x74: // t
        return this.literal('true');
      case 0x66: // f
        return this.literal('false');
      case 0x6e: // n
        return this.literal('null');
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return scalar(this.number());
        return this.fail(Number.isNaN(c) ? 'unexpected end of input' : 'unexpected character');
    }
  }

  literal(word: string): JsonScalar {
    if (!this.s.startsWith(word, this.pos)) this.fail('invalid literal');
    this.pos += word.length;
    return scalar(word);
  }

  number(): string {
    const s = this.s;
    const start = this.pos;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) i++;
    const intStart = i;
    while (isDigit(s.charCodeAt(i))) i++;
    if (i === intStart) {
      this.pos = i;
      this.fail('invalid number');
    }
    if (s.charCodeAt(intStart) === 0x30 && i - intStart > 1) {
      this.pos = intStart;
      this.fail('leading zero in number');
    }
    if (s.charCodeAt(i) === 0x2e) {
      i++;
      const f = i;
      while (isDigit(s.charCodeAt(i))) i++;
      if (i === f) {
        this.pos = i;
        this.fail('invalid number');
      }
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      const d = i;
      while (isDigit(s.charCodeAt(i))) i++;
      if (i === d) {
        this.pos = i;
        this.fail('invalid number');
      }
    }
    this.pos = i;
    return s.slice(start, i);
  }

  /** Returns the string's output text: the input slice when it needs no re-encoding. */
  string(): string {
    const s = this.s;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('unterminated string');
      }
      if (c < 0x20) {
        this.pos = i;
        this.fail('control character in string');
      }
      if (c === 0x5c) {
        escaped = true;
        i += 2;
      } else {
        i++;
      }
    }
    this.pos = i + 1;
    const slice = s.slice(start, i + 1);
    if (!escaped) return slice;
    return encodeJsonString(this.decodeSlice(slice, start));
  }

  /** Parses a string token and returns its decoded value (used for field names). */
  stringValue(): string {
    const start = this.pos;
    this.string();
    const slice = this.s.slice(start, this.pos);
    return slice.indexOf('\\') < 0 ? slice.slice(1, -1) : this.decodeSlice(slice, start);
  }

  decodeSlice(slice: string, at: number): string {
    try {
      return JSON.parse(slice) as string;
    } catch {
      this.pos = at;
      return this.fail('invalid escape in string');
    }
  }

  object(depth: number): JsonObject {
    this.pos++; // {
    const keys: string[] = [];
    const values: JsonNode[] = [];
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return { kind: 'object', keys, values };
    }
    for (;;) {
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 0x22) this.fail('expected a field name');
      keys.push(this.stringValue());
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      values.push(this.value(depth + 1));
      this.skipWs();
      const c = this.s.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x2c) continue;
      if (c === 0x7d) return { kind: 'object', keys, values };
      this.pos--;
      this.fail("expected ',' or '}'");
    }
  }

  array(depth: number): JsonArray {
    this.pos++; // [
    const items: JsonNode[] = [];
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      this.skipWs();
      items.push(this.value(depth + 1));
      this.skipWs();
      const c = this.s.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x2c) continue;
      if (c === 0x5d) return { kind: 'array', items };
      this.pos--;
      this.fail("expected ',' or ']'");
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Compact JSON, as OpenSearch writes it without `pretty`. */
export function stringifyCompact(node: JsonNode): string {
  const parts: string[] = [];
  writeCompact(node, parts);
  return parts.join('');
}

function writeCompact(node: JsonNode, out: string[]): void {
  switch (node.kind) {
    case 'scalar':
      out.push(node.raw);
      return;
    case 'array':
      out.push('[');
      node.items.forEach((item, i) => {
        if (i > 0) out.push(',');
        writeCompact(item, out);
      });
      out.push(']');
      return;
    case 'object':
      out.push('{');
      node.keys.forEach((key, i) => {
        if (i > 0) out.push(',');
        out.push(encodeJsonString(key), ':');
        writeCompact(node.values[i] as JsonNode, out);
      });
      out.push('}');
  }
}
