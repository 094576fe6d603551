import { describe, expect, it } from 'vitest';
import { indexNotFound } from '../../src/http/error-table';
import { OpenSearchError } from '../../src/http/errors';
import { openIndexOutcome } from '../../src/lron/open-index-outcome';

const ok = { body: Buffer.from('{"acknowledged":true,"shards_acknowledged":true}') };

describe('open notification texts', () => {
  it('names one index with its cluster', () => {
    expect(openIndexOutcome(['logs'], 'prod', ok, undefined)).toEqual({
      result: 'COMPLETE',
      title: '[prod/logs] has been opened',
      message: '[prod/logs] has been set to open.',
    });
  });

  it('counts several indices', () => {
    expect(openIndexOutcome(['a', 'b*'], 'prod', ok, undefined)).toEqual({
      result: 'COMPLETE',
      title: '2 indexes from [prod] have been opened',
      message: '[a,b*] from [prod] have been set to open.',
    });
  });

  it('fails with the failing index and reason', () => {
    expect(openIndexOutcome(['gone'], 'prod', undefined, indexNotFound('gone'))).toEqual({
      result: 'FAILED',
      title: '[prod/gone] has failed to open',
      message: 'index [gone] no such index [gone].',
    });
    const several = openIndexOutcome(['a', 'b'], 'prod', undefined, new OpenSearchError(500, 'exception', 'disk on fire'));
    expect(several).toEqual({ result: 'FAILED', title: '2 indexes from [prod] have failed to open', message: 'disk on fire' });
  });
});
