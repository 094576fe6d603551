// `GET /_cat`: the `_cat` endpoints this node answers, in OpenSearch's order and words.
import { route, type ActionSpec } from '../../http/action';

const ENDPOINTS = [
  '/_cat/allocation',
  '/_cat/shards',
  '/_cat/shards/{index}',
  '/_cat/cluster_manager',
  '/_cat/nodes',
  '/_cat/tasks',
  '/_cat/indices',
  '/_cat/indices/{index}',
  '/_cat/segments',
  '/_cat/segments/{index}',
  '/_cat/count',
  '/_cat/count/{index}',
  '/_cat/recovery',
  '/_cat/recovery/{index}',
  '/_cat/health',
  '/_cat/pending_tasks',
  '/_cat/aliases',
  '/_cat/aliases/{alias}',
  '/_cat/thread_pool',
  '/_cat/thread_pool/{thread_pools}',
  '/_cat/plugins',
  '/_cat/fielddata',
  '/_cat/fielddata/{fields}',
  '/_cat/nodeattrs',
  '/_cat/repositories',
  '/_cat/snapshots/{repository}',
  '/_cat/templates',
];

const BODY = Buffer.from(`=^.^=\n${ENDPOINTS.map((e) => `${e}\n`).join('')}`);

export const catIndex: ActionSpec = {
  action: 'cluster:monitor/main',
  routes: [route('GET', '/_cat')],
  params: [],
  output: 'text',
  run: () => ({ status: 200, body: BODY }),
};
