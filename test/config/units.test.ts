import { describe, expect, it } from 'vitest';
import { formatBytes, formatMillis, formatTimeValue, parseByteSize, parseTimeValue, timeValueMillis } from '../../src/config/units';
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

describe('parseByteSize (ByteSizeValue)', () => {
  it('reads every unit, case-insensitively, with spaces before the unit', () => {
    expect(parseByteSize('100mb', 's')).toBe(104857600);
    expect(parseByteSize('1K', 's')).toBe(1024);
    expect(parseByteSize('2 GB', 's')).toBe(2 * 1024 ** 3);
    expect(parseByteSize('1tb', 's')).toBe(1024 ** 4);
    expect(parseByteSize('1p', 's')).toBe(1024 ** 5);
    expect(parseByteSize('512b', 's')).toBe(512);
    expect(parseByteSize('0', 's')).toBe(0);
    expect(parseByteSize('-1', 's')).toBe(-1);
    expect(parseByteSize('1.5kb', 's')).toBe(1536);
  });

  it('words failures as OpenSearch does', () => {
    const missing = thrown(() => parseByteSize('100', 'http.max_content_length'));
    expect(missing.type).toBe('parse_exception');
    expect(missing.reason).toBe('failed to parse setting [http.max_content_length] with value [100] as a size in bytes: unit is missing or unrecognized');
    const nan = thrown(() => parseByteSize('abcmb', 's'));
    expect(nan.reason).toBe('failed to parse [abcmb]');
    expect(nan.causedBy).toEqual({ type: 'number_format_exception', reason: 'For input string: "abc"' });
    expect(thrown(() => parseByteSize('-5kb', 's')).reason).toBe('failed to parse setting [s] with value [-5kb] as a size in bytes');
  });
});

describe('parseTimeValue (TimeValue)', () => {
  it('reads every unit', () => {
    expect(parseTimeValue('30s', 't')).toEqual({ duration: 30, unit: 's' });
    expect(parseTimeValue('5ms', 't')).toEqual({ duration: 5, unit: 'ms' });
    expect(parseTimeValue('2M', 't')).toEqual({ duration: 2, unit: 'm' });
    expect(parseTimeValue('1h', 't')).toEqual({ duration: 1, unit: 'h' });
    expect(parseTimeValue('7d', 't')).toEqual({ duration: 7, unit: 'd' });
    expect(parseTimeValue('10micros', 't')).toEqual({ duration: 10, unit: 'micros' });
    expect(parseTimeValue('10nanos', 't')).toEqual({ duration: 10, unit: 'nanos' });
    expect(parseTimeValue('-1', 't')).toEqual({ duration: -1, unit: 'ms' });
    expect(parseTimeValue('0', 't')).toEqual({ duration: 0, unit: 'ms' });
    expect(timeValueMillis(parseTimeValue('1s', 't'))).toBe(1000);
    expect(timeValueMillis(parseTimeValue('2m', 't'))).toBe(120000);
  });

  it('words failures as OpenSearch does (checked against 2.19)', () => {
    expect(thrown(() => parseTimeValue('abc', 'timeout')).reason).toBe(
      'failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized',
    );
    expect(thrown(() => parseTimeValue('10', 'timeout')).reason).toBe(
      'failed to parse setting [timeout] with value [10] as a time value: unit is missing or unrecognized',
    );
    expect(thrown(() => parseTimeValue('1.5s', 't')).reason).toBe('failed to parse [1.5s], fractional time values are not supported');
    expect(thrown(() => parseTimeValue('xs', 't')).reason).toBe('failed to parse [xs]');
    expect(thrown(() => parseTimeValue('-2s', 't')).reason).toBe('failed to parse setting [t] with value [-2s] as a time value: negative durations are not supported');
  });
});

describe('human formatting', () => {
  it('prints sizes as ByteSizeValue.toString', () => {
    expect(formatBytes(0)).toBe('0b');
    expect(formatBytes(1023)).toBe('1023b');
    expect(formatBytes(1024)).toBe('1kb');
    expect(formatBytes(1229)).toBe('1.2kb');
    expect(formatBytes(1535)).toBe('1.4kb'); // truncated, not rounded
    expect(formatBytes(11010048)).toBe('10.5mb');
    expect(formatBytes(104857600)).toBe('100mb');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5tb');
  });

  it('prints durations as TimeValue.toString', () => {
    expect(formatTimeValue({ duration: 0, unit: 'ms' })).toBe('0s');
    expect(formatTimeValue({ duration: -1, unit: 'ms' })).toBe('-1');
    expect(formatMillis(250)).toBe('250ms');
    expect(formatMillis(1500)).toBe('1.5s');
    expect(formatMillis(90_000)).toBe('1.5m');
    expect(formatTimeValue({ duration: 36, unit: 'h' })).toBe('1.5d');
    expect(formatTimeValue({ duration: 500, unit: 'micros' })).toBe('500micros');
  });
});
