import { describe, expect, it } from 'vitest';
import { OpenSearchError } from '../../src/http/errors';
import { RecordQuery, type RecordField } from '../../src/system/record-query-string';

interface Rec {
  id: string;
  action?: string;
  name: string;
  priority: number;
}

const FIELDS = new Map<string, RecordField<Rec>>([
  ['_id', { kind: 'keyword', values: (r) => [r.id] }],
  ['cfg.action', { kind: 'keyword', values: (r) => (r.action === undefined ? [] : [r.action]) }],
  ['cfg.name', { kind: 'text', values: (r) => [r.name] }],
  ['cfg.priority', { kind: 'integer', values: (r) => [r.priority] }],
]);
const DEFAULTS = ['cfg.action', 'cfg.name', 'cfg.priority'];
const RECORDS: Rec[] = [
  { id: 'LRON:indices:admin/forcemerge', action: 'indices:admin/forcemerge', name: 'Nightly merge of logs', priority: 100 },
  { id: 'LRON:node-a:12', name: 'One merge, once', priority: 200 },
  { id: 'LRON:indices:admin/open', action: 'indices:admin/open', name: 'Open alerts', priority: 100 },
];

const ids = (q: string): string[] => {
  const query = RecordQuery.parse(q, FIELDS, DEFAULTS);
  return RECORDS.filter((r) => query.matches(r)).map((r) => r.id);
};

describe('query_string over records', () => {
  it('matches everything with *, and fields by their kind', () => {
    expect(ids('*')).toHaveLength(3);
    expect(ids('*:*')).toHaveLength(3);
    expect(ids('merge')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:node-a:12']);
    expect(ids('MERGE')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:node-a:12']);
    expect(ids('cfg.action:indices\\:admin\\/open')).toEqual(['LRON:indices:admin/open']);
    expect(ids('cfg.action:indices\\:admin\\/OPEN')).toEqual([]);
    expect(ids('cfg.priority:200')).toEqual(['LRON:node-a:12']);
    expect(ids('cfg.action:*')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:indices:admin/open']);
    expect(ids('cfg.*:alerts')).toEqual(['LRON:indices:admin/open']);
  });

  it('reads the notifier’s own id query', () => {
    expect(ids('_id:(LRON\\:node-a\\:12 OR LRON\\:indices\\:admin\\/forcemerge)')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:node-a:12']);
  });

  it('combines clauses as Lucene does: OR by default, AND and NOT beside them', () => {
    expect(ids('nightly open')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:indices:admin/open']);
    expect(ids('merge AND logs')).toEqual(['LRON:indices:admin/forcemerge']);
    expect(ids('merge && NOT logs')).toEqual(['LRON:node-a:12']);
    expect(ids('+merge -once')).toEqual(['LRON:indices:admin/forcemerge']);
    expect(ids('-merge')).toEqual(['LRON:indices:admin/open']);
    expect(ids('(open OR once) AND cfg.priority:100')).toEqual(['LRON:indices:admin/open']);
    expect(ids('"merge of logs"^2')).toEqual(['LRON:indices:admin/forcemerge']);
    expect(ids('"logs of merge"')).toEqual([]);
    expect(ids('nig*')).toEqual(['LRON:indices:admin/forcemerge']);
    expect(ids('cfg.action:indices?admin*')).toEqual(['LRON:indices:admin/forcemerge', 'LRON:indices:admin/open']);
  });

  it('refuses what it cannot parse', () => {
    const failure = (q: string): OpenSearchError => {
      try {
        RecordQuery.parse(q, FIELDS, DEFAULTS);
      } catch (e) {
        return e as OpenSearchError;
      }
      throw new Error('parsed');
    };
    expect(failure('(merge')).toMatchObject({ type: 'query_shard_exception', reason: 'Failed to parse query [(merge]' });
    expect(failure('AND merge').reason).toBe('Failed to parse query [AND merge]');
    expect(failure('"open').causedBy).toMatchObject({ type: 'parse_exception' });
    expect(failure('merge~2')).toMatchObject({ type: 'illegal_argument_exception', reason: 'query_string fuzzy and proximity searches (~) are not supported on this list' });
  });
});
