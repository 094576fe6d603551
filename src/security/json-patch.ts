// JSON Patch (RFC 6902) as the security plugin's `PATCH` routes take it: the `add`, `replace` and
// `remove` operations only, on paths written as JSON Pointers (RFC 6901). The patch is applied to
// a copy, so a failing operation leaves the configuration as it was. Refusals use the wording of
// the plugin's answers (`Wrong request body`, `Unsupported patch operation: …`) and of the patch
// library it runs for the rest (`[REMOVE Operation] Missing field "x" at root`).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface PatchOperation {
  readonly op: 'add' | 'replace' | 'remove';
  /** The pointer's tokens, unescaped (`/a~1b/0` is `['a/b', '0']`). */
  readonly path: readonly string[];
  readonly value: JsonValue | undefined;
}

export class PatchError extends Error {}

const SUPPORTED = ['add', 'replace', 'remove'] as const;

function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`Invalid JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pointerText(path: readonly string[]): string {
  return path.length === 0 ? 'root' : `/${path.map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * Reads a patch document: an array of operations, each with an `op` this API supports, a `path`,
 * and a `value` where the operation needs one.
 */
export function parsePatch(body: Buffer): PatchOperation[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new PatchError(`Error in JSON patch: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc) || doc.length === 0) throw new PatchError('Wrong request body');
  const ops: PatchOperation[] = [];
  for (const item of doc) {
    const op: unknown = isObject(item) ? item.op : undefined;
    if (typeof op !== 'string') throw new PatchError('Wrong request body');
    if (!(SUPPORTED as readonly string[]).includes(op)) throw new PatchError(`Unsupported patch operation: ${op}. Supported are: ${SUPPORTED.join(',')}`);
    const o = item as { [key: string]: JsonValue };
    if (typeof o.path !== 'string') throw new PatchError(`Invalid JSON Patch payload (missing 'path' field)`);
    if (op !== 'remove' && !('value' in o)) throw new PatchError(`Invalid JSON Patch payload (missing 'value' field)`);
    ops.push({ op: op as PatchOperation['op'], path: parsePointer(o.path), value: o.value });
  }
  return ops;
}

/** The first token of each operation's path: the entries a patch of a whole collection touches. */
export function patchedNames(ops: readonly PatchOperation[]): string[] {
  return [...new Set(ops.filter((o) => o.path.length > 0).map((o) => o.path[0] as string))];
}

function arrayIndex(arr: JsonValue[], token: string, forAdd: boolean, fail: (what: string) => never): number {
  if (forAdd && token === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) fail(`Object operation on array target`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) fail('index Out of bound');
  return i;
}

function applyOne(root: JsonValue, o: PatchOperation): JsonValue {
  const name = o.op.toUpperCase();
  const fail = (what: string, at: readonly string[] = o.path): never => {
    throw new PatchError(`[${name} Operation] ${what} at ${pointerText(at)}`);
  };
  if (o.path.length === 0) {
    if (o.op === 'remove') fail('Cannot remove root');
    return structuredClone(o.value as JsonValue);
  }
  let parent: JsonValue = root;
  for (let i = 0; i < o.path.length - 1; i++) {
    const token = o.path[i] as string;
    const next: JsonValue | undefined = Array.isArray(parent)
      ? parent[arrayIndex(parent, token, false, (w) => fail(w, o.path.slice(0, i + 1)))]
      : isObject(parent)
        ? parent[token]
        : undefined;
    if (next === undefined || next === null || typeof next !== 'object') fail('Missing field', o.path.slice(0, i + 1));
    parent = next as JsonValue;
  }
  const last = o.path[o.path.length - 1] as string;
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, last, o.op === 'add', fail);
    if (o.op === 'add') parent.splice(i, 0, structuredClone(o.value as JsonValue));
    else if (o.op === 'replace') parent[i] = structuredClone(o.value as JsonValue);
    else parent.splice(i, 1);
  } else if (isObject(parent)) {
    if (o.op !== 'add' && !Object.prototype.hasOwnProperty.call(parent, last)) fail(`Missing field "${last}"`, o.path.slice(0, -1));
    if (o.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(o.value as JsonValue);
  } else {
    fail('parent is not a container', o.path.slice(0, -1));
  }
  return root;
}

/** `target` with every operation applied in order; `target` itself is left as it was. */
export function applyPatch(target: JsonValue, ops: readonly PatchOperation[]): JsonValue {
  let out = structuredClone(target);
  for (const o of ops) out = applyOne(out, o);
  return out;
}
