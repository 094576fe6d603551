import { route, type ActionSpec } from '../../http/action';
import { validationFailed } from '../../http/error-table';
import { BY_QUERY_PARAMS, runByQuery } from './by-query';

const ACTION = 'indices:data/write/delete/byquery';

// `POST /<index>/_delete_by_query`: deletes what a query finds.
export const documentDeleteByQuery: ActionSpec = {
  action: ACTION,
  cancellable: true,
  routes: [route('POST', '/:index/_delete_by_query')],
  params: BY_QUERY_PARAMS,
  run: (request, node) =>
    runByQuery(request, node, {
      action: ACTION,
      name: 'delete_by_query',
      missingQuery: () => validationFailed(['query is missing']),
      // a delete needs the id, routing and seq_no of each hit, never its document
      withoutSource: true,
      omit: ['updated', 'created'],
      op: 'delete',
    }),
};
