// A request body read the way OpenSearch's XContentParser reads JSON, for the TypeScript actions
// that parse bodies themselves (plugin APIs: notification settings, notification channels).
//
// The body becomes a tree whose every node remembers where it starts and ends (line and byte
// column, as Jackson counts them), so that the errors OpenSearch raises while walking its token
// stream can be raised here with the same text: Jackson's syntax errors (`json_parse_exception`,
// `json_e_o_f_exception`), `ensureExpectedToken`'s `parsing_exception` with `line`/`col`, and the
// typed accessors' failures (`text()` on an object, `booleanValue()` on a number, ...).
//
// Like a handler that stops reading once it has its object, content after the root value is
// not looked at.
import { OpenSearchError } from './errors';
import { bodyRequired } from './error-table';

export interface Location {
  readonly line: number;
  /** 1-based byte column, as Jackson's byte-based parser reports it. */
  readonly col: number;
}

interface NodeBase {
  /** Where the token starts (`getTokenLocation()`). */
  readonly start: Location;
  /** Just past the token's first part (a scalar's end, an object's `{`): where Jackson's accessors report. */
  readonly afterToken: Location;
}

export interface XObject extends NodeBase {
  readonly kind: 'object';
  readonly entries: ReadonlyArray<readonly [string, XNode]>;
  /** Where each entry's field name starts (its FIELD_NAME token). */
  readonly keyStarts: readonly Location[];
  /** Where the closing `}` is (its END_OBJECT token). */
  readonly end: Location;
}

export interface XArray extends NodeBase {
  readonly kind: 'array';
  readonly items: readonly XNode[];
}

export interface XScalar extends NodeBase {
  readonly kind: 'string' | 'number' | 'true' | 'false' | 'null';
  /** A string's decoded text, a number's digits as written, `true`, `false`, `null`. */
  readonly text: string;
  /** For numbers: whether it has a fraction or exponent (Jackson's VALUE_NUMBER_FLOAT). */
  readonly float?: boolean;
}

export type XNode = XObject | XArray | XScalar;

const SOURCE = 'Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

function at(loc: Location): string {
  return `[${SOURCE}; line: ${loc.line}, column: ${loc.col}]`;
}

function jsonParseError(message: string, loc: Location): OpenSearchError {
  return new OpenSearchError(400, 'json_parse_exception', `${message}\n at ${at(loc)}`);
}

function describeChar(code: number): string {
  if (code < 32) return `(CTRL-CHAR, code ${code})`;
  return `('${String.fromCodePoint(code)}' (code ${code}))`;
}

const VALID_VALUE = "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')";
const UNRECOGNIZED = "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')";

/** Tokenizes and builds the tree; byte offsets make the columns Jackson's. */
class Reader {
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  constructor(private readonly bytes: Buffer) {}

  loc(offset = this.pos): Location {
    return { line: this.line, col: offset - this.lineStart + 1 };
  }

  private skipWhitespace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos] as number;
      if (c === 0x20 || c === 0x09 || c === 0x0d) this.pos++;
      else if (c === 0x0a) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else break;
    }
  }

  /** The code point at the position (UTF-8 decoded) and its byte length. */
  private codePointAt(offset: number): [number, number] {
    const b = this.bytes;
    const c = b[offset] as number;
    if (c < 0x80) return [c, 1];
    const len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    const s = b.subarray(offset, offset + len).toString('utf8');
    return [s.codePointAt(0) ?? c, len];
  }

  private unexpected(what: string): OpenSearchError {
    const [code] = this.codePointAt(this.pos);
    return jsonParseError(`Unexpected character ${describeChar(code)}: ${what}`, this.loc(this.pos));
  }

  private eof(context: 'Object' | 'Array', start: Location): OpenSearchError {
    return new OpenSearchError(
      400,
      'json_e_o_f_exception',
      `Unexpected end-of-input: expected close marker for ${context} (start marker at ${at(start)})\n at ${at(this.loc(this.bytes.length))}`,
    );
  }

  readRoot(): XNode {
    this.skipWhitespace();
    return this.readValue(undefined);
  }

  private readValue(container: { kind: 'Object' | 'Array'; start: Location } | undefined): XNode {
    const b = this.bytes;
    if (this.pos >= b.length) {
      if (container !== undefined) throw this.eof(container.kind, container.start);
      throw new OpenSearchError(400, 'json_e_o_f_exception', `Unexpected end-of-input\n at ${at(this.loc())}`);
    }
    const c = b[this.pos] as number;
    if (c === 0x7b) return this.readObject();
    if (c === 0x5b) return this.readArray();
    if (c === 0x22) {
      const start = this.loc();
      const text = this.readString();
      return { kind: 'string', text, start, afterToken: this.loc() };
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.readNumber();
    if (isIdentifierByte(c)) return this.readWord();
    throw this.unexpected(VALID_VALUE);
  }

  private readWord(): XScalar {
    const b = this.bytes;
    const start = this.loc();
    const from = this.pos;
    while (this.pos < b.length && isIdentifierByte(b[this.pos] as number)) this.pos++;
    const word = b.subarray(from, this.pos).toString('utf8');
    if (word === 'true' || word === 'false' || word === 'null') return { kind: word, text: word, start, afterToken: this.loc() };
    throw jsonParseError(`Unrecognized token '${word}': ${UNRECOGNIZED}`, this.loc(this.pos + 1));
  }

  private readNumber(): XScalar {
    const b = this.bytes;
    const start = this.loc();
    const from = this.pos;
    if (b[this.pos] === 0x2d) this.pos++;
    const intStart = this.pos;
    while (this.pos < b.length && isDigit(b[this.pos] as number)) this.pos++;
    if (this.pos === intStart) {
      if (this.pos >= b.length) throw jsonParseError('Unexpected end-of-input in a Number value', this.loc());
      throw this.unexpected('expected digit (0-9) to follow minus sign, for valid numeric value');
    }
    if (this.pos - intStart > 1 && b[intStart] === 0x30) throw jsonParseError('Invalid numeric value: Leading zeroes not allowed', this.loc(intStart + 1));
    let float = false;
    if (b[this.pos] === 0x2e) {
      float = true;
      this.pos++;
      const fracStart = this.pos;
      while (this.pos < b.length && isDigit(b[this.pos] as number)) this.pos++;
      if (this.pos === fracStart) throw this.unexpected('Decimal point not followed by a digit');
    }
    if (b[this.pos] === 0x65 || b[this.pos] === 0x45) {
      float = true;
      this.pos++;
      if (b[this.pos] === 0x2b || b[this.pos] === 0x2d) this.pos++;
      const expStart = this.pos;
      while (this.pos < b.length && isDigit(b[this.pos] as number)) this.pos++;
      if (this.pos === expStart) throw this.unexpected('Exponent indicator not followed by a digit');
    }
    return { kind: 'number', text: b.subarray(from, this.pos).toString('latin1'), float, start, afterToken: this.loc() };
  }

  /** A string starting at the opening quote; returns its decoded text. */
  private readString(): string {
    const b = this.bytes;
    this.pos++;
    const parts: string[] = [];
    let runStart = this.pos;
    while (this.pos < b.length) {
      const c = b[this.pos] as number;
      if (c === 0x22) {
        parts.push(b.subarray(runStart, this.pos).toString('utf8'));
        this.pos++;
        return parts.join('');
      }
      if (c < 0x20) {
        throw jsonParseError(`Illegal unquoted character ${describeChar(c)}: has to be escaped using backslash to be included in string value`, this.loc(this.pos + 1));
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      parts.push(b.subarray(runStart, this.pos).toString('utf8'));
      this.pos++;
      const e = b[this.pos];
      if (e === undefined) break;
      const simple: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
      const mapped = simple[e];
      if (mapped !== undefined) {
        parts.push(mapped);
        this.pos++;
      } else if (e === 0x75) {
        const hex = b.subarray(this.pos + 1, this.pos + 5).toString('latin1');
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw jsonParseError('Unexpected character in a \\u escape: expected a hex-digit for character escape sequence', this.loc(this.pos + 2));
        parts.push(String.fromCharCode(parseInt(hex, 16)));
        this.pos += 5;
      } else {
        const [code] = this.codePointAt(this.pos);
        throw jsonParseError(`Unrecognized character escape ${describeChar(code).slice(1, -1)}`, this.loc(this.pos + 1));
      }
      runStart = this.pos;
    }
    throw new OpenSearchError(400, 'json_e_o_f_exception', `Unexpected end-of-input: was expecting closing quote for a string value\n at ${at(this.loc(b.length))}`);
  }

  private readObject(): XObject {
    const b = this.bytes;
    const start = this.loc();
    this.pos++;
    const afterToken = this.loc();
    const container = { kind: 'Object' as const, start };
    const entries: Array<readonly [string, XNode]> = [];
    const keyStarts: Location[] = [];
    const seen = new Set<string>();
    this.skipWhitespace();
    if (b[this.pos] === 0x7d) {
      const end = this.loc();
      this.pos++;
      return { kind: 'object', entries, keyStarts, end, start, afterToken };
    }
    for (;;) {
      if (this.pos >= b.length) throw this.eof('Object', start);
      if (b[this.pos] !== 0x22) throw this.unexpected('was expecting double-quote to start field name');
      keyStarts.push(this.loc());
      const key = this.readString();
      if (seen.has(key)) throw jsonParseError(`Duplicate field '${key}'`, this.loc());
      seen.add(key);
      this.skipWhitespace();
      if (this.pos >= b.length) throw this.eof('Object', start);
      if (b[this.pos] !== 0x3a) throw this.unexpected('was expecting a colon to separate field name and value');
      this.pos++;
      this.skipWhitespace();
      entries.push([key, this.readValue(container)]);
      this.skipWhitespace();
      if (this.pos >= b.length) throw this.eof('Object', start);
      const end = this.loc();
      const c = b[this.pos];
      this.pos++;
      if (c === 0x7d) return { kind: 'object', entries, keyStarts, end, start, afterToken };
      if (c !== 0x2c) {
        this.pos--;
        throw this.unexpected('was expecting comma to separate Object entries');
      }
      this.skipWhitespace();
    }
  }

  private readArray(): XArray {
    const b = this.bytes;
    const start = this.loc();
    this.pos++;
    const afterToken = this.loc();
    const container = { kind: 'Array' as const, start };
    const items: XNode[] = [];
    this.skipWhitespace();
    if (b[this.pos] === 0x5d) {
      this.pos++;
      return { kind: 'array', items, start, afterToken };
    }
    for (;;) {
      items.push(this.readValue(container));
      this.skipWhitespace();
      if (this.pos >= b.length) throw this.eof('Array', start);
      const c = b[this.pos];
      this.pos++;
      if (c === 0x5d) return { kind: 'array', items, start, afterToken };
      if (c !== 0x2c) {
        this.pos--;
        throw this.unexpected('was expecting comma to separate Array entries');
      }
      this.skipWhitespace();
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Bytes Jackson gathers into an unquoted token before calling it unrecognized. */
function isIdentifierByte(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDigit(c) || c === 0x5f || c === 0x24 || c >= 0x80;
}

/** `RestRequest.contentParser()`: the body's root value; no body → `request body is required`. */
export function readBody(body: Buffer | undefined): XNode {
  if (body === undefined || body.length === 0) throw bodyRequired();
  return new Reader(body).readRoot();
}

/** OpenSearch's token names, as `ensureExpectedToken` prints them. */
export function tokenName(node: XNode): string {
  switch (node.kind) {
    case 'object':
      return 'START_OBJECT';
    case 'array':
      return 'START_ARRAY';
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'true':
    case 'false':
      return 'VALUE_BOOLEAN';
    case 'null':
      return 'VALUE_NULL';
  }
}

/** Jackson's name of a token, as its accessor errors print it. */
function jacksonTokenName(node: XNode): string {
  switch (node.kind) {
    case 'number':
      return node.float === true ? 'VALUE_NUMBER_FLOAT' : 'VALUE_NUMBER_INT';
    case 'true':
      return 'VALUE_TRUE';
    case 'false':
      return 'VALUE_FALSE';
    default:
      return tokenName(node);
  }
}

/** `XContentParserUtils.ensureExpectedToken` failing at a token (`found` names what is there). */
export function unexpectedToken(expected: string, found: string, loc: Location): OpenSearchError {
  return new OpenSearchError(400, 'parsing_exception', `Failed to parse object: expecting token of type [${expected}] but found [${found}]`, {
    line: loc.line,
    col: loc.col,
  });
}

export function expectObject(node: XNode): XObject {
  if (node.kind !== 'object') throw unexpectedToken('START_OBJECT', tokenName(node), node.start);
  return node;
}

export function expectArray(node: XNode): XArray {
  if (node.kind !== 'array') throw unexpectedToken('START_ARRAY', tokenName(node), node.start);
  return node;
}

/** `parser.text()`: a scalar's text; anything else is an `illegal_state_exception` (500), as in Java. */
export function textOf(node: XNode): string {
  if (node.kind === 'object' || node.kind === 'array' || node.kind === 'null') {
    throw new OpenSearchError(500, 'illegal_state_exception', `Can't get text on a ${tokenName(node)} at ${node.start.line}:${node.start.col}`);
  }
  return node.text;
}

/** `parser.textOrNull()`. */
export function textOrNull(node: XNode): string | null {
  return node.kind === 'null' ? null : textOf(node);
}

/** `parser.booleanValue()`: a boolean, or the strings `true`/`false`. */
export function booleanOf(node: XNode): boolean {
  if (node.kind === 'true') return true;
  if (node.kind === 'false') return false;
  if (node.kind === 'string') {
    if (node.text === 'true') return true;
    if (node.text === 'false') return false;
    throw new OpenSearchError(400, 'illegal_argument_exception', `Failed to parse value [${node.text}] as only [true] or [false] are allowed.`);
  }
  throw jsonParseError(`Current token (${jacksonTokenName(node)}) not of boolean type`, node.afterToken);
}

/** `parser.intValue()`: a number (fractions truncated) or a numeric string, within Java's int. */
export function intOf(node: XNode): number {
  if (node.kind === 'number' || node.kind === 'string') {
    const text = node.text.trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n) || (node.kind === 'string' && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text))) {
      throw new OpenSearchError(400, 'number_format_exception', `For input string: "${node.text}"`);
    }
    const whole = Math.trunc(n);
    if (whole > 2147483647 || whole < -2147483648) {
      throw jsonParseError(`Numeric value (${node.text}) out of range of int (-2147483648 - 2147483647)`, node.afterToken);
    }
    return whole;
  }
  throw jsonParseError(`Current token (${jacksonTokenName(node)}) not numeric, can not use numeric value accessors`, node.afterToken);
}
