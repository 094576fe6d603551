// OpenSearch's `query_string` syntax evaluated over a system index's records, for the plugin
// APIs whose lists take one (`queryString` of the notification settings, `query` and
// `text_query` of the notification configs). Those records are few, so each query is matched
// record by record instead of through an engine index.
//
// The Lucene classic syntax is read with its rules: terms, `field:term`, `field:(…)`, phrases,
// `*` and `?` wildcards, `\` escapes, `+`/`-`/`!`, `AND`/`OR`/`NOT`/`&&`/`||`, groups and boosts
// (`^2`, which orders nothing here); the default operator is OR, and AND/NOT attach to the
// clauses beside them as Lucene attaches them. Fields are matched by their mapping's kind: a
// keyword is the whole value, a text field is lower-cased words (the standard analyzer, close
// enough for ids, names and URLs), an integer a number. `*` alone, or `*:*`, matches everything;
// `field:*` matches records that have the field. Fuzzy (`~`), ranges and regular expressions
// are refused by name.
import { OpenSearchError } from '../http/errors';
import { textWords } from './text-words';

export type FieldKind = 'keyword' | 'text' | 'integer';

export interface RecordField<T> {
  readonly kind: FieldKind;
  readonly values: (record: T) => ReadonlyArray<string | number | boolean>;
}

type Occur = 'must' | 'should' | 'must_not';

type QueryNode =
  | { readonly kind: 'all' }
  | { readonly kind: 'exists'; readonly field: string }
  | { readonly kind: 'term'; readonly field: string | undefined; readonly text: string; readonly pattern: RegExp | undefined }
  | { readonly kind: 'phrase'; readonly field: string | undefined; readonly text: string }
  | { readonly kind: 'bool'; readonly clauses: ReadonlyArray<{ readonly occur: Occur; readonly node: QueryNode }> };

/** `Failed to parse query [q]`, as query_string's shard failure names it. */
function cannotParse(query: string, why: string): OpenSearchError {
  return new OpenSearchError(400, 'query_shard_exception', `Failed to parse query [${query}]`, {}, { type: 'parse_exception', reason: `Cannot parse '${query}': ${why}` });
}

type Token =
  | { readonly t: 'term'; readonly text: string; readonly raw: string; readonly wild: boolean }
  | { readonly t: 'phrase'; readonly text: string }
  | { readonly t: 'colon' | 'lparen' | 'rparen' | 'plus' | 'minus' | 'not' | 'and' | 'or' }
  | { readonly t: 'boost' };

// Characters that end a term (Lucene's term characters exclude them; `*` and `?` stay in it).
const SPECIAL = new Set([...'+-!():^[]"{}~\\/']);

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ':' || c === '+' || c === '-' || c === '!') {
      out.push({ t: c === '(' ? 'lparen' : c === ')' ? 'rparen' : c === ':' ? 'colon' : c === '+' ? 'plus' : c === '-' ? 'minus' : 'not' });
      i++;
      continue;
    }
    if ((c === '&' || c === '|') && q[i + 1] === c) {
      out.push({ t: c === '&' ? 'and' : 'or' });
      i += 2;
      continue;
    }
    if (c === '"') {
      const end = q.indexOf('"', i + 1);
      if (end === -1) throw cannotParse(q, 'Lexical error: unterminated phrase');
      out.push({ t: 'phrase', text: q.slice(i + 1, end).replace(/\\(.)/g, '$1') });
      i = end + 1;
      continue;
    }
    if (c === '^') {
      const m = /^\^\d+(\.\d+)?/.exec(q.slice(i));
      if (m === null) throw cannotParse(q, `Encountered "^" at column ${i}`);
      out.push({ t: 'boost' });
      i += m[0].length;
      continue;
    }
    if (c === '~') throw new OpenSearchError(400, 'illegal_argument_exception', 'query_string fuzzy and proximity searches (~) are not supported on this list');
    if (c === '[' || c === '{') throw new OpenSearchError(400, 'illegal_argument_exception', 'query_string ranges are not supported on this list');
    if (c === '/') throw new OpenSearchError(400, 'illegal_argument_exception', 'query_string regular expressions are not supported on this list');
    let text = '';
    let raw = '';
    let wild = false;
    while (i < q.length) {
      const d = q[i] as string;
      if (d === '\\') {
        const next = q[i + 1];
        if (next === undefined) throw cannotParse(q, 'Lexical error at end of input');
        text += next;
        raw += `\\${next}`;
        i += 2;
        continue;
      }
      // `+` and `-` only start an operator; inside a term they are part of it (`node-1`).
      if (/\s/.test(d) || (SPECIAL.has(d) && !((d === '-' || d === '+') && raw !== ''))) break;
      if (d === '*' || d === '?') wild = true;
      text += d;
      raw += d;
      i++;
    }
    if (raw === '') throw cannotParse(q, `Encountered "${c}" at column ${i}`);
    if (text === 'AND' || text === 'OR' || text === 'NOT') out.push({ t: text === 'AND' ? 'and' : text === 'OR' ? 'or' : 'not' });
    else out.push({ t: 'term', text, raw, wild });
  }
  return out;
}

/** A term's pattern when it has unescaped wildcards: `*` any run, `?` one character. */
function wildcardPattern(raw: string, lowerCase: boolean): RegExp {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\') {
      out += (raw[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else out += c.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${lowerCase ? out.toLowerCase() : out}$`, 's');
}

class Parser {
  private i = 0;

  constructor(
    private readonly q: string,
    private readonly tokens: Token[],
  ) {}

  parse(): QueryNode {
    const node = this.query(undefined);
    if (this.i < this.tokens.length) throw cannotParse(this.q, 'Encountered ")"');
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  /** Clauses up to `)` or the end, combined as Lucene's classic parser combines them. */
  private query(field: string | undefined): QueryNode {
    const clauses: Array<{ occur: Occur; node: QueryNode }> = [];
    for (;;) {
      const tok = this.peek();
      if (tok === undefined || tok.t === 'rparen') break;
      let conj: 'and' | 'or' | undefined;
      if (tok.t === 'and' || tok.t === 'or') {
        if (clauses.length === 0) throw cannotParse(this.q, `Encountered "${tok.t.toUpperCase()}"`);
        conj = tok.t;
        this.i++;
      }
      let mod: 'req' | 'not' | undefined;
      const m = this.peek();
      if (m?.t === 'plus') mod = 'req';
      else if (m?.t === 'minus' || m?.t === 'not') mod = 'not';
      if (mod !== undefined) this.i++;
      const node = this.clause(field);
      // Lucene's addClause: AND makes the clause before required (unless prohibited).
      const prev = clauses[clauses.length - 1];
      if (conj === 'and' && prev !== undefined && prev.occur !== 'must_not') prev.occur = 'must';
      const prohibited = mod === 'not';
      const required = mod === 'req' || (conj === 'and' && !prohibited);
      clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', node });
    }
    if (clauses.length === 0) throw cannotParse(this.q, 'Encountered "<EOF>"');
    const only = clauses[0];
    return clauses.length === 1 && only !== undefined && only.occur === 'should' ? only.node : { kind: 'bool', clauses };
  }

  private clause(field: string | undefined): QueryNode {
    const tok = this.tokens[this.i++];
    if (tok === undefined) throw cannotParse(this.q, 'Encountered "<EOF>"');
    let node: QueryNode;
    if (tok.t === 'lparen') {
      node = this.query(field);
      if (this.tokens[this.i++]?.t !== 'rparen') throw cannotParse(this.q, 'Encountered "<EOF>", expected ")"');
    } else if (tok.t === 'phrase') node = { kind: 'phrase', field, text: tok.text };
    else if (tok.t === 'term') {
      if (this.peek()?.t === 'colon' && field === undefined) {
        this.i++;
        const name = tok.text;
        const value = this.tokens[this.i];
        if (value?.t === 'term' && value.raw === '*') {
          this.i++;
          node = name === '*' ? { kind: 'all' } : { kind: 'exists', field: name };
        } else node = this.clause(name);
      } else if (tok.raw === '*' && field === undefined) node = { kind: 'all' };
      else node = { kind: 'term', field, text: tok.text, pattern: tok.wild ? wildcardPattern(tok.raw, false) : undefined };
    } else throw cannotParse(this.q, `Encountered "${tok.t}"`);
    if (this.peek()?.t === 'boost') this.i++;
    return node;
  }
}

export class RecordQuery<T> {
  private constructor(
    private readonly root: QueryNode,
    private readonly fields: ReadonlyMap<string, RecordField<T>>,
    private readonly defaultFields: readonly string[],
  ) {}

  /**
   * Parses `query` for records with `fields` (by index field name); terms without a field
   * search `defaultFields`.
   */
  static parse<T>(query: string, fields: ReadonlyMap<string, RecordField<T>>, defaultFields: readonly string[]): RecordQuery<T> {
    return new RecordQuery(new Parser(query, tokenize(query)).parse(), fields, defaultFields);
  }

  matches(record: T): boolean {
    return this.eval(this.root, record);
  }

  /** The fields a name means: itself, or every known field its `*` pattern covers. */
  private resolve(name: string | undefined): string[] {
    if (name === undefined) return [...this.defaultFields];
    if (!name.includes('*')) return [name];
    const re = wildcardPattern(name.replace(/\./g, '\\.'), false);
    return [...this.fields.keys()].filter((f) => re.test(f));
  }

  private eval(node: QueryNode, record: T): boolean {
    switch (node.kind) {
      case 'all':
        return true;
      case 'exists':
        return this.resolve(node.field).some((f) => (this.fields.get(f)?.values(record).length ?? 0) > 0);
      case 'term':
      case 'phrase':
        return this.resolve(node.field).some((f) => {
          const field = this.fields.get(f);
          return field !== undefined && field.values(record).some((v) => valueMatches(field.kind, String(v), node));
        });
      case 'bool': {
        const must = node.clauses.filter((c) => c.occur === 'must');
        const should = node.clauses.filter((c) => c.occur === 'should');
        if (node.clauses.some((c) => c.occur === 'must_not' && this.eval(c.node, record))) return false;
        if (!must.every((c) => this.eval(c.node, record))) return false;
        // With required clauses the optional ones only score; alone, one of them must match. A
        // query of exclusions only matches everything else (OpenSearch adds a match_all).
        return must.length > 0 || should.length === 0 || should.some((c) => this.eval(c.node, record));
      }
    }
  }
}

function valueMatches(kind: FieldKind, value: string, node: Extract<QueryNode, { kind: 'term' | 'phrase' }>): boolean {
  if (kind === 'keyword') return node.kind === 'term' && node.pattern !== undefined ? node.pattern.test(value) : value === node.text;
  if (kind === 'integer') return node.kind === 'term' && /^[+-]?\d+$/.test(node.text) && Number(node.text) === Number(value);
  const have = textWords(value);
  if (node.kind === 'term' && node.pattern !== undefined) {
    const pattern = new RegExp(node.pattern.source.toLowerCase(), 's');
    return have.some((w) => pattern.test(w));
  }
  const want = textWords(node.text);
  if (want.length === 0) return false;
  // A term that analyses to several words matches any of them (the default operator); a
  // phrase needs them in a row.
  if (node.kind === 'term') return want.some((w) => have.includes(w));
  return have.some((_, start) => want.every((w, k) => have[start + k] === w));
}
