// `GET /_cluster/state[/<metrics>[/<indices>]]`: the engine gives the blocks, index metadata,
// stored scripts and shard routing it holds; this adds the node itself (`nodes`, `master_node`,
// `cluster_manager_node`) and lays the sections out in OpenSearch's order.
// `wait_for_metadata_version` waits (on a timer, holding no engine thread) until the state's
// version reaches it, or `wait_for_timeout` (1m) passes: then only `wait_for_timed_out: true`.
import { randomBytes } from 'node:crypto';
import { route, type ActionRequest, type ActionSpec } from '../../http/action';
import type { EngineResponse } from '../../engine';
import { parseLongParam } from '../../http/common-params';
import { jsonResponse } from '../../http/json-response';
import type { NodeContext } from '../../node-context';
import { parseTimeValue, timeValueMillis } from '../../config/units';
import { nodeHeader } from '../nodes/facts';

const ACTION = 'cluster:monitor/state';
const DEFAULT_WAIT_MS = 60_000;
const POLL_MS = 50;
/** A node's id for this run of the process, as OpenSearch's `ephemeral_id`. */
const EPHEMERAL_ID = randomBytes(16).toString('base64url');

interface EngineState {
  version: number;
  state_uuid: string;
  metrics: string[];
  blocks?: unknown;
  metadata?: unknown;
  routing_table?: unknown;
  routing_nodes?: unknown;
}

function layout(node: NodeContext, s: EngineState, timedOutField: boolean): Record<string, unknown> {
  const wants = (m: string): boolean => s.metrics.includes(m);
  const id = node.engine.nodeId;
  const out: Record<string, unknown> = timedOutField ? { wait_for_timed_out: false } : {};
  out.cluster_name = node.config.cluster.name;
  out.cluster_uuid = node.engine.clusterUuid;
  if (wants('version')) Object.assign(out, { version: s.version, state_uuid: s.state_uuid });
  if (wants('master_node')) out.master_node = id;
  if (wants('cluster_manager_node')) out.cluster_manager_node = id;
  if (wants('blocks')) out.blocks = s.blocks;
  if (wants('nodes')) {
    const { name, transport_address } = nodeHeader(node) as { name: string; transport_address: string };
    out.nodes = { [id]: { name, ephemeral_id: EPHEMERAL_ID, transport_address, attributes: { shard_indexing_pressure_enabled: 'true' } } };
  }
  if (wants('metadata')) out.metadata = s.metadata;
  if (wants('routing_table')) out.routing_table = s.routing_table;
  if (wants('routing_nodes')) out.routing_nodes = s.routing_nodes;
  return out;
}

async function clusterState(request: ActionRequest, node: NodeContext): Promise<EngineResponse> {
  const { params } = request;
  const waitFor = params.wait_for_metadata_version === undefined ? undefined : parseLongParam('wait_for_metadata_version', params.wait_for_metadata_version, 0);
  const waitMs = params.wait_for_timeout === undefined ? DEFAULT_WAIT_MS : timeValueMillis(parseTimeValue(params.wait_for_timeout, 'wait_for_timeout'));
  const deadline = Date.now() + waitMs;
  const engineParams = { ...params };
  delete engineParams.wait_for_metadata_version;
  delete engineParams.wait_for_timeout;
  for (;;) {
    const res = await node.engine.execute(ACTION, engineParams, undefined);
    if (res.status !== 200) return res;
    const state = JSON.parse(res.body.toString('utf8')) as EngineState;
    if (waitFor === undefined || BigInt(state.version) >= BigInt(waitFor)) return jsonResponse(layout(node, state, waitFor !== undefined));
    if (Date.now() >= deadline || request.signal.aborted) return jsonResponse({ wait_for_timed_out: true });
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
  }
}

export const clusterStateAction: ActionSpec = {
  action: ACTION,
  routes: [route('GET', '/_cluster/state'), route('GET', '/_cluster/state/:metric'), route('GET', '/_cluster/state/:metric/:index')],
  params: ['local', 'master_timeout', 'cluster_manager_timeout', 'flat_settings', 'wait_for_metadata_version', 'wait_for_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
  run: clusterState,
};
