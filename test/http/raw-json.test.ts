import { describe, expect, it } from 'vitest';
import { encodeJsonString, fromValue, JsonSyntaxError, parseJson, stringifyCompact } from '../../src/http/raw-json';

describe('raw JSON tree', () => {
  it('round-trips compact JSON byte for byte', () => {
    const text = '{"a":12345678901234567890,"b":-1.5e-300,"c":[true,false,null],"d":"é\\"","1":0,"0":1}';
    expect(stringifyCompact(parseJson(text))).toBe(text);
  });

  it('keeps integer-like keys in document order', () => {
    const node = parseJson('{"2":1,"1":2}');
    expect(node.kind === 'object' && node.keys).toEqual(['2', '1']);
  });

  it('accepts surrounding whitespace', () => {
    expect(stringifyCompact(parseJson(' \n{ "a" : [ 1 , 2 ] }\n'))).toBe('{"a":[1,2]}');
  });

  it.each(['{', '{"a":}', '[1,]', '{"a":1}x', '01', '1.', '"\\x"', 'tru', '{"a" 1}', '"a\u0001"'])('rejects %j', (bad) => {
    expect(() => parseJson(bad)).toThrow(JsonSyntaxError);
  });

  it('encodes strings like Jackson', () => {
    expect(encodeJsonString('a"b\\c\n\u0000\u007f/é')).toBe('"a\\"b\\\\c\\n\\u0000\u007f/é"');
  });

  it('builds trees from plain values', () => {
    expect(stringifyCompact(fromValue({ a: 1, b: [true, null], c: 'x', d: undefined, e: 10n }))).toBe('{"a":1,"b":[true,null],"c":"x","e":10}');
  });
});
