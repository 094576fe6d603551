import { describe, expect, it } from 'vitest';
import {
  badBoolean,
  bodyRequired,
  contentTooLong,
  indexNotFound,
  methodNotAllowed,
  noHandlerFound,
  unrecognizedParameters,
  validationFailed,
} from '../../src/http/error-table';
import { levenshteinSimilarity } from '../../src/http/levenshtein';

describe('unrecognizedParameters', () => {
  it('words one parameter, with a suggestion (OpenSearch 2.19 output)', () => {
    const e = unrecognizedParameters('/_search', ['sizee'], ['size', 'pretty']);
    expect(e.status).toBe(400);
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('request [/_search] contains unrecognized parameter: [sizee] -> did you mean [size]?');
  });

  it('sorts several, suggests per name, leaves far ones bare (OpenSearch 2.19 output)', () => {
    expect(unrecognizedParameters('/_search', ['sizee', 'prety'], ['size', 'pretty', 'from']).reason).toBe(
      'request [/_search] contains unrecognized parameters: [prety] -> did you mean [pretty]?, [sizee] -> did you mean [size]?',
    );
    expect(unrecognizedParameters('/_search', ['froms', 'form'], ['format']).reason).toBe(
      'request [/_search] contains unrecognized parameters: [form] -> did you mean [format]?, [froms]',
    );
    expect(unrecognizedParameters('/x', ['b', 'a'], []).reason).toBe('request [/x] contains unrecognized parameters: [a], [b]');
  });

  it('lists several suggestions best first as "any of"', () => {
    expect(unrecognizedParameters('/i/_doc/1', ['refres'], ['refresh', 'refreshh', 'routing']).reason).toBe(
      'request [/i/_doc/1] contains unrecognized parameter: [refres] -> did you mean any of [refresh, refreshh]?',
    );
  });
});

describe('levenshteinSimilarity (Lucene)', () => {
  it('is 1 - distance / longest', () => {
    expect(levenshteinSimilarity('sizee', 'size')).toBeCloseTo(0.8);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('a', '')).toBe(0);
    expect(levenshteinSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7);
  });
});

describe('error table', () => {
  it('has OpenSearch wording and statuses', () => {
    expect(badBoolean('maybe').reason).toBe('Failed to parse value [maybe] as only [true] or [false] are allowed.');
    expect(bodyRequired()).toMatchObject({ status: 400, type: 'parse_exception', reason: 'request body is required' });
    expect(noHandlerFound('GET', '/x')).toMatchObject({ status: 400, plain: true, plainStatus: false });
    expect(methodNotAllowed('PATCH', '/', ['GET', 'POST', 'GET']).reason).toBe('Incorrect HTTP method for uri [/] and method [PATCH], allowed: [GET, POST]');
    expect(validationFailed(['index is missing', 'id is missing']).reason).toBe('Validation Failed: 1: index is missing;2: id is missing;');
    expect(indexNotFound('x').extra).toEqual({ index: 'x', 'resource.id': 'x', 'resource.type': 'index_or_alias', index_uuid: '_na_' });
  });

  it('says what the body limit is on 413', () => {
    const e = contentTooLong(2048, 1024);
    expect(e.status).toBe(413);
    expect(e.reason).toContain('[2048]');
    expect(e.reason).toContain('[1024]');
    expect(e.reason).toContain('http.max_content_length');
  });
});
