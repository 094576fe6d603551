import { describe, expect, it } from 'vitest';
import { OpenSearchError } from '../../src/http/errors';
import { booleanOf, expectObject, intOf, readBody, textOf, textOrNull } from '../../src/http/xcontent';

const SRC = 'Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

function failure(fn: () => unknown): { status: number; type: string; reason: string; extra: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpenSearchError) return { status: e.status, type: e.type, reason: e.reason, extra: { ...e.extra } };
    throw e;
  }
  throw new Error('did not fail');
}

const read = (s: string): ReturnType<typeof readBody> => readBody(Buffer.from(s));

describe('readBody', () => {
  it('reads objects in order, with token locations in byte columns', () => {
    const o = expectObject(read('{"é":1,\n "b": [true, null, "x"]}'));
    expect(o.entries.map(([k]) => k)).toEqual(['é', 'b']);
    expect(o.keyStarts).toEqual([
      { line: 1, col: 2 },
      { line: 2, col: 2 },
    ]);
    expect(o.end).toEqual({ line: 2, col: 24 });
  });

  it('refuses a missing body as OpenSearch does', () => {
    expect(failure(() => readBody(undefined))).toMatchObject({ status: 400, type: 'parse_exception', reason: 'request body is required' });
  });

  it("words syntax errors as Jackson does, the column counting bytes", () => {
    expect(failure(() => read('{"query":{"term":{"ééé":"x"}}, "x"}'))).toMatchObject({
      type: 'json_parse_exception',
      reason: `Unexpected character ('}' (code 125)): was expecting a colon to separate field name and value\n at [${SRC}; line: 1, column: 38]`,
    });
    expect(failure(() => read('{index: 1}')).reason).toBe(`Unexpected character ('i' (code 105)): was expecting double-quote to start field name\n at [${SRC}; line: 1, column: 2]`);
    expect(failure(() => read('{"a":1 "b":2}')).reason).toBe(`Unexpected character ('"' (code 34)): was expecting comma to separate Object entries\n at [${SRC}; line: 1, column: 8]`);
    expect(failure(() => read('{"a":[1 2]}')).reason).toBe(`Unexpected character ('2' (code 50)): was expecting comma to separate Array entries\n at [${SRC}; line: 1, column: 9]`);
    expect(failure(() => read('{"a":x}')).reason).toBe(
      `Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [${SRC}; line: 1, column: 8]`,
    );
    expect(failure(() => read('{"a":}')).reason).toBe(
      `Unexpected character ('}' (code 125)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [${SRC}; line: 1, column: 6]`,
    );
    expect(failure(() => read('{"query":{"match_all":{}}'))).toMatchObject({
      type: 'json_e_o_f_exception',
      reason: `Unexpected end-of-input: expected close marker for Object (start marker at [${SRC}; line: 1, column: 1])\n at [${SRC}; line: 1, column: 26]`,
    });
    expect(failure(() => read('{"a":1,"a":2}')).reason).toMatch(/^Duplicate field 'a'/);
  });

  it('ignores what follows the root value, as a handler that stops reading does', () => {
    expect(expectObject(read('{"a":1} trailing')).entries).toHaveLength(1);
  });
});

describe('accessors', () => {
  const value = (json: string) => expectObject(read(`{"v":${json}}`)).entries[0]![1];

  it('expectObject fails with ensureExpectedToken’s parsing_exception at the token', () => {
    expect(failure(() => expectObject(value('"x"')))).toEqual({
      status: 400,
      type: 'parsing_exception',
      reason: 'Failed to parse object: expecting token of type [START_OBJECT] but found [VALUE_STRING]',
      extra: { line: 1, col: 6 },
    });
  });

  it('text() takes scalars; objects and null are an illegal state (500)', () => {
    expect(textOf(value('12'))).toBe('12');
    expect(textOf(value('"é\\n"'))).toBe('é\n');
    expect(textOrNull(value('null'))).toBeNull();
    expect(failure(() => textOf(value('{}')))).toMatchObject({ status: 500, type: 'illegal_state_exception', reason: "Can't get text on a START_OBJECT at 1:6" });
  });

  it('booleanValue() takes booleans and their strings only', () => {
    expect(booleanOf(value('"false"'))).toBe(false);
    expect(failure(() => booleanOf(value('"yes"'))).reason).toBe('Failed to parse value [yes] as only [true] or [false] are allowed.');
    expect(failure(() => booleanOf(value('1'))).reason).toBe(`Current token (VALUE_NUMBER_INT) not of boolean type\n at [${SRC}; line: 1, column: 7]`);
  });

  it('intValue() takes numbers and numeric strings', () => {
    expect(intOf(value('25'))).toBe(25);
    expect(intOf(value('"587"'))).toBe(587);
    expect(intOf(value('2.9'))).toBe(2);
    expect(failure(() => intOf(value('"abc"')))).toMatchObject({ type: 'number_format_exception', reason: 'For input string: "abc"' });
    expect(failure(() => intOf(value('true'))).reason).toBe(`Current token (VALUE_TRUE) not numeric, can not use numeric value accessors\n at [${SRC}; line: 1, column: 10]`);
  });
});
