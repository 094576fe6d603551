import { route, type ActionSpec } from '../../http/action';
import { parseReindex } from '../../reindex/request';
import { readJsonObject } from '../../http/json-body';
import { locator } from '../../http/body-locator';
import { runScrollTask } from '../../reindex/scroll-task';
import { reindexOutcome } from '../../lron/reindex-outcome';
import type { EngineResponse } from '../../engine';

const ACTION = 'indices:data/write/reindex';

// `POST /_reindex`: copies the documents a search of `source` finds into `dest`, through the
// engine's scroll and bulk writes, one batch per engine call (reindex/bulk-by-scroll.ts).
export const documentReindex: ActionSpec = {
  action: ACTION,
  cancellable: true,
  routes: [route('POST', '/_reindex')],
  params: ['refresh', 'timeout', 'wait_for_active_shards', 'wait_for_completion', 'requests_per_second', 'slices', 'scroll', 'max_docs', 'require_alias'],
  run: (request, node) => {
    const req = parseReindex(request.params, readJsonObject(request.body), locator(request.body));
    const sources = req.sourceIndex.split(',');
    const notify = (taskId: string, run: Promise<EngineResponse>): Promise<EngineResponse> =>
      node.lron.watch(taskId, ACTION, run, (response, error) => reindexOutcome(sources, req.destIndex, node.config.cluster.name, taskId, response, error));
    return runScrollTask(request, node, ACTION, `reindex from [${req.sourceIndex}] to [${req.destIndex}]`, req.waitForCompletion, notify, {
      index: req.sourceIndex,
      search: req.search,
      batchSize: req.batchSize,
      maxDocs: req.maxDocs,
      proceedOnConflicts: req.proceedOnConflicts,
      omit: [],
      refresh: req.refresh ? req.destIndex : undefined,
      requestsPerSecond: req.requestsPerSecond,
      writes: { op: req.opType, dest: req.destIndex, routing: req.routing, guard: false },
    });
  },
};
