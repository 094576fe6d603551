import { describe, expect, it } from 'vitest';
import { applyFilterPath, compileFilterPath } from '../../src/http/filter-path';
import { parseJson, stringifyCompact } from '../../src/http/raw-json';

const DOC =
  '{"took":3,"errors":false,"items":[{"index":{"_id":"1","status":201}},{"index":{"_id":"2","status":200}}],' +
  '"b":[],"c":{},"g":[1,{"h":[]},{"h":2,"i":3},[4,{"h":5}]],"n":null,' +
  '"o":{"p":{"q":1,"r":2},"s":{"q":3}},"big":9007199254740993,"a.b":7}';

function filter(path: string, doc = DOC): string {
  const f = compileFilterPath(path);
  if (f === undefined) return doc;
  return stringifyCompact(applyFilterPath(parseJson(doc), f));
}

describe('filter_path', () => {
  it('keeps named fields, in document order', () => {
    expect(filter('errors,took')).toBe('{"took":3,"errors":false}');
  });

  it('filters arrays element by element', () => {
    expect(filter('items.*._id')).toBe('{"items":[{"index":{"_id":"1"}},{"index":{"_id":"2"}}]}');
    expect(filter('g.h')).toBe('{"g":[{"h":[]},{"h":2},[{"h":5}]]}');
  });

  it('drops objects and arrays that filtering emptied, keeps matched empty ones', () => {
    expect(filter('o.*.r')).toBe('{"o":{"p":{"r":2}}}');
    expect(filter('b,c,n')).toBe('{"b":[],"c":{},"n":null}');
    expect(filter('c.x')).toBe('{}');
  });

  it('matches * within a name and ** at any depth', () => {
    expect(filter('er*')).toBe('{"errors":false}');
    expect(filter('*ook')).toBe('{"took":3}');
    expect(filter('**.q')).toBe('{"o":{"p":{"q":1},"s":{"q":3}}}');
    expect(filter('o.**.q')).toBe('{"o":{"p":{"q":1},"s":{"q":3}}}');
    expect(filter('**.status')).toBe('{"items":[{"index":{"status":201}},{"index":{"status":200}}]}');
  });

  it('with exclusions only, keeps everything else', () => {
    expect(filter('-items,-g,-b,-c,-n,-big,-a\\.b,-o.p.q')).toBe('{"took":3,"errors":false,"o":{"p":{"r":2},"s":{"q":3}}}');
    expect(filter('-**.q,-items,-g')).toBe('{"took":3,"errors":false,"n":null,"o":{"p":{"r":2}},"big":9007199254740993,"a.b":7}');
  });

  it('drops empty containers reached through a partial exclusion, as Jackson filtering does', () => {
    // `**` partially matches every field, so `b: []` and `c: {}` are written only if something
    // inside them survives; nothing does.
    expect(filter('-**.zz', '{"b":[],"c":{},"d":1}')).toBe('{"d":1}');
    expect(filter('-x.y', '{"x":{},"b":[]}')).toBe('{"b":[]}');
  });

  it('drops an object whose every field was excluded', () => {
    expect(filter('o,-o.p.q,-o.p.r')).toBe('{"o":{"s":{"q":3}}}');
  });

  it('applies inclusions, then exclusions', () => {
    expect(filter('o,-o.p')).toBe('{"o":{"s":{"q":3}}}');
    expect(filter('items,-items.*.status')).toBe('{"items":[{"index":{"_id":"1"}},{"index":{"_id":"2"}}]}');
  });

  it('treats \\. as a literal dot in a name', () => {
    expect(filter('a\\.b')).toBe('{"a.b":7}');
  });

  it('gives {} when everything is filtered out', () => {
    expect(filter('nothing.here')).toBe('{}');
    expect(filter('-*')).toBe('{}');
  });

  it('filters a root array (cat format=json)', () => {
    expect(filter('index', '[{"index":"a","health":"green"},{"index":"b"}]')).toBe('[{"index":"a"},{"index":"b"}]');
    expect(filter('zzz', '[{"index":"a"}]')).toBe('[]');
  });

  it('ignores empty and blank tokens', () => {
    expect(compileFilterPath(' , ,')).toBeUndefined();
    expect(filter(' took , ')).toBe('{"took":3}');
  });
});
