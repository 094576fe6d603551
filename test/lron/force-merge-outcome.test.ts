import { describe, expect, it } from 'vitest';
import { indexNotFound } from '../../src/http/error-table';
import { OpenSearchError } from '../../src/http/errors';
import { forceMergeIndices, forceMergeOutcome } from '../../src/lron/force-merge-outcome';

const ok = { body: Buffer.from('{"_shards":{"total":2,"successful":1,"failed":0}}') };

describe('force merge notification texts', () => {
  it('reads the target indices as the REST layer splits them', () => {
    expect(forceMergeIndices(undefined)).toEqual([]);
    expect(forceMergeIndices(' a , ,b')).toEqual(['a', 'b']);
  });

  it('names one index with its cluster', () => {
    expect(forceMergeOutcome(['logs'], 'prod', ok, undefined)).toEqual({
      result: 'COMPLETE',
      title: 'Force merge operation on [prod/logs] has completed',
      message: 'The force merge operation on [prod/logs] has been completed.',
    });
  });

  it('counts several indices, or none', () => {
    expect(forceMergeOutcome(['a', 'b*'], 'prod', ok, undefined)).toEqual({
      result: 'COMPLETE',
      title: 'Force merge operation on 2 indexes from [prod] has completed',
      message: '[a,b*] from [prod] have been merged.',
    });
    expect(forceMergeOutcome([], 'prod', ok, undefined).message).toBe('[] from [prod] have been merged.');
  });

  it('fails with the failing index and reason', () => {
    expect(forceMergeOutcome(['gone'], 'prod', undefined, indexNotFound('gone'))).toEqual({
      result: 'FAILED',
      title: 'Force merge operation on [prod/gone] has failed',
      message: 'index [gone] no such index [gone].',
    });
    expect(forceMergeOutcome(['x'], 'prod', undefined, new OpenSearchError(500, 'exception', 'disk on fire')).message).toBe('disk on fire');
  });

  it('fails with each failed shard', () => {
    const body = Buffer.from(
      JSON.stringify({
        _shards: {
          total: 2,
          successful: 0,
          failed: 2,
          failures: [
            { shard: 0, index: 'a', status: 'INTERNAL_SERVER_ERROR', reason: { type: 'illegal_state_exception', reason: 'merge aborted' } },
            { shard: 1, index: 'a', status: 'INTERNAL_SERVER_ERROR', reason: { type: 'io_exception', reason: 'no space' } },
          ],
        },
      }),
    );
    expect(forceMergeOutcome(['a'], 'c', { body }, undefined)).toEqual({
      result: 'FAILED',
      title: 'Force merge operation on [c/a] has failed',
      message: 'index [a] shard [0] IllegalStateException[merge aborted],index [a] shard [1] IoException[no space]',
    });
  });
});
