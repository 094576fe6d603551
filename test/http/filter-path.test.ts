import { describe, expect, it } from 'vitest';
import { shapeResponse } from '../../src/http/pretty';

const body = Buffer.from(
  '{"took":3,"errors":false,"items":[{"index":{"_id":"1","status":201}},{"index":{"_id":"2","status":200}}],"big":9007199254740993,"nested":{"a":{"b":1,"c":2}}}',
);

function shape(filterPath?: string, pretty = false): string {
  return shapeResponse(body, { pretty, filterPath }).toString();
}

describe('filter_path', () => {
  it('returns the same buffer when nothing is asked', () => {
    expect(shapeResponse(body, { pretty: false, filterPath: undefined })).toBe(body);
  });

  it('keeps named paths and filters arrays element-wise', () => {
    expect(JSON.parse(shape('took,items.*._id'))).toEqual({ took: 3, items: [{ index: { _id: '1' } }, { index: { _id: '2' } }] });
  });

  it('matches any depth with ** and wildcards inside names', () => {
    expect(JSON.parse(shape('**.b'))).toEqual({ nested: { a: { b: 1 } } });
    expect(JSON.parse(shape('er*'))).toEqual({ errors: false });
  });

  it('excludes with a leading -', () => {
    expect(JSON.parse(shape('-items,-nested.a.c,-big'))).toEqual({ took: 3, errors: false, nested: { a: { b: 1 } } });
  });

  it('keeps longs beyond 2^53 exactly', () => {
    expect(shape('big')).toBe('{"big":9007199254740993}');
  });

  it('gives {} when everything is filtered out', () => {
    expect(shape('nothing.here')).toBe('{}');
  });
});

describe('pretty', () => {
  it('prints like Jackson', () => {
    const out = shapeResponse(Buffer.from('{"a":[],"b":{},"c":[1,2],"d":{"e":"x"}}'), { pretty: true, filterPath: undefined }).toString();
    expect(out).toBe('{\n  "a" : [ ],\n  "b" : { },\n  "c" : [ 1, 2 ],\n  "d" : {\n    "e" : "x"\n  }\n}\n');
  });
});
