import { route, type ActionRequest, type ActionSpec } from '../../http/action';
import type { EngineResponse } from '../../engine';
import type { NodeContext } from '../../node-context';
import { parseTimeValue, timeValueMillis } from '../../config/units';

const ACTION = 'cluster:monitor/health';
const DEFAULT_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

/**
 * `wait_for_status` (and a missing target, which is waited for too) polls: each engine call
 * answers at once — 200 when satisfied, else 408 `timed_out` because it is sent `timeout=0s` —
 * and the wait between calls is a timer on the event loop, so a health check waiting 30 s holds
 * no engine thread.
 */
async function health(request: ActionRequest, node: NodeContext): Promise<EngineResponse> {
  const { params } = request;
  let waitMs: number;
  try {
    waitMs = params.timeout === undefined ? DEFAULT_TIMEOUT_MS : Math.max(0, timeValueMillis(parseTimeValue(params.timeout, 'timeout')));
  } catch {
    // The engine words the refusal of a bad timeout.
    return node.engine.execute(ACTION, params, undefined);
  }
  const deadline = Date.now() + waitMs;
  const poll = { ...params, timeout: '0s' };
  for (;;) {
    const res = await node.engine.execute(ACTION, poll, undefined);
    if (res.status !== 408 || Date.now() >= deadline || request.signal.aborted) return res;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
  }
}

export const clusterHealth: ActionSpec = {
  action: ACTION,
  routes: [route('GET', '/_cluster/health'), route('GET', '/_cluster/health/:index')],
  params: ['expand_wildcards', 'level', 'local', 'master_timeout', 'cluster_manager_timeout', 'timeout', 'wait_for_active_shards', 'wait_for_nodes', 'wait_for_events', 'wait_for_no_relocating_shards', 'wait_for_no_initializing_shards', 'wait_for_status', 'awareness_attribute', 'ensure_node_commissioned'],
  run: health,
};
