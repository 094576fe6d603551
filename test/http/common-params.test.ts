import { describe, expect, it } from 'vitest';
import { parseBoolParam, parseCommonParams, parseFloatParam, parseIntParam, parseLongParam } from '../../src/http/common-params';
import { OpenSearchError } from '../../src/http/errors';

function thrown(f: () => unknown): OpenSearchError {
  try {
    f();
  } catch (e) {
    if (e instanceof OpenSearchError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('parseBoolParam', () => {
  it('follows RestRequest.paramAsBoolean', () => {
    expect(parseBoolParam('pretty', undefined)).toBe(false);
    expect(parseBoolParam('pretty', undefined, true)).toBe(true);
    expect(parseBoolParam('pretty', '')).toBe(true);
    expect(parseBoolParam('pretty', 'true')).toBe(true);
    expect(parseBoolParam('pretty', 'false')).toBe(false);
    expect(parseBoolParam('pretty', ' ', true)).toBe(true);
  });

  it.each(['TRUE', '1', 'yes', 'maybe'])('refuses %j with OpenSearch wording', (v) => {
    const e = thrown(() => parseBoolParam('pretty', v));
    expect(e.status).toBe(400);
    expect(e.reason).toBe(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
  });
});

describe('parseCommonParams', () => {
  it('reads the four universal parameters', () => {
    expect(parseCommonParams({ pretty: '', human: 'true', error_trace: 'false', filter_path: 'took' })).toEqual({
      pretty: true,
      human: true,
      errorTrace: false,
      filterPath: 'took',
    });
    expect(parseCommonParams({})).toEqual({ pretty: false, human: false, errorTrace: false, filterPath: undefined });
    expect(parseCommonParams({ pretty: ['false', 'true'] }).pretty).toBe(true);
  });
});

describe('numeric parameters', () => {
  it('parses ints like Integer.parseInt', () => {
    expect(parseIntParam('size', '+10', 0)).toBe(10);
    expect(parseIntParam('size', undefined, 7)).toBe(7);
    for (const bad of ['abc', '1.5', '2147483648', '']) {
      const e = thrown(() => parseIntParam('size', bad, 0));
      expect(e.reason).toBe(`Failed to parse int parameter [size] with value [${bad}]`);
      expect(e.causedBy).toEqual({ type: 'number_format_exception', reason: `For input string: "${bad}"` });
    }
  });

  it('parses longs without rounding', () => {
    expect(parseLongParam('v', '9223372036854775807', 0)).toBe(9223372036854775807n);
    expect(parseLongParam('v', '42', 0)).toBe(42);
    expect(thrown(() => parseLongParam('v', '9223372036854775808', 0)).reason).toBe('Failed to parse long parameter [v] with value [9223372036854775808]');
  });

  it('parses floats like Float.parseFloat', () => {
    expect(parseFloatParam('boost', '1.5', 1)).toBe(1.5);
    expect(parseFloatParam('boost', '2f', 1)).toBe(2);
    expect(thrown(() => parseFloatParam('boost', 'x', 1)).reason).toBe('Failed to parse float parameter [boost] with value [x]');
  });
});
