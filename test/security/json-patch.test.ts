// JSON Patch as the security API takes it: add, replace and remove on JSON Pointers, applied to a
// copy, with the plugin's refusals.
import { describe, expect, it } from 'vitest';
import { applyPatch, parsePatch, patchedNames, PatchError } from '../../src/security/json-patch';

const ops = (v: unknown) => parsePatch(Buffer.from(JSON.stringify(v)));

describe('json patch', () => {
  it('adds, replaces and removes members and array elements, leaving the input alone', () => {
    const before = { a: { list: [1, 2, 3] }, 'x/y': { '~k': 1 } };
    const after = applyPatch(
      before,
      ops([
        { op: 'add', path: '/a/list/1', value: 9 },
        { op: 'add', path: '/a/list/-', value: 4 },
        { op: 'remove', path: '/a/list/0' },
        { op: 'replace', path: '/x~1y/~0k', value: { deep: true } },
        { op: 'add', path: '/b', value: [] },
      ]),
    );
    expect(after).toEqual({ a: { list: [9, 2, 3, 4] }, 'x/y': { '~k': { deep: true } }, b: [] });
    expect(before).toEqual({ a: { list: [1, 2, 3] }, 'x/y': { '~k': 1 } });
    expect(applyPatch({ a: 1 }, ops([{ op: 'replace', path: '', value: { b: 2 } }]))).toEqual({ b: 2 });
  });

  it('names the entries a collection patch touches', () => {
    expect(patchedNames(ops([{ op: 'add', path: '/r1/x', value: 1 }, { op: 'remove', path: '/r2' }, { op: 'remove', path: '/r1/y' }]))).toEqual(['r1', 'r2']);
  });

  it('refuses what the plugin refuses', () => {
    const refusal = (body: string): string => {
      try {
        parsePatch(Buffer.from(body));
      } catch (e) {
        expect(e).toBeInstanceOf(PatchError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal('{"op":"add"}')).toBe('Wrong request body');
    expect(refusal('[]')).toBe('Wrong request body');
    expect(refusal('[{"op":"copy","from":"/a","path":"/b"}]')).toBe('Unsupported patch operation: copy. Supported are: add,replace,remove');
    expect(refusal('[{"op":"add","path":"/a"}]')).toBe("Invalid JSON Patch payload (missing 'value' field)");
    expect(refusal('[nope')).toMatch(/^Error in JSON patch: /);
    const failing = (target: unknown, patch: unknown): string => {
      try {
        applyPatch(target as never, ops(patch));
      } catch (e) {
        expect(e).toBeInstanceOf(PatchError);
        return (e as Error).message;
      }
      throw new Error('applied');
    };
    expect(failing({ a: 1 }, [{ op: 'remove', path: '/b' }])).toBe('[REMOVE Operation] Missing field "b" at root');
    expect(failing({ a: {} }, [{ op: 'replace', path: '/a/b', value: 1 }])).toBe('[REPLACE Operation] Missing field "b" at /a');
    expect(failing({ a: [1] }, [{ op: 'remove', path: '/a/1' }])).toBe('[REMOVE Operation] index Out of bound at /a/1');
    expect(failing({}, [{ op: 'add', path: '/a/b', value: 1 }])).toBe('[ADD Operation] Missing field at /a');
  });
});
