import { route, type ActionSpec } from '../../http/action';
import { BY_QUERY_PARAMS, runByQuery } from './by-query';

const ACTION = 'indices:data/write/update/byquery';

// `POST /<index>/_update_by_query`: writes each matching document again as it is (what picks up
// a mapping change), all of them without a query. Without scripts, that is all it can do.
export const documentUpdateByQuery: ActionSpec = {
  action: ACTION,
  cancellable: true,
  routes: [route('POST', '/:index/_update_by_query')],
  params: BY_QUERY_PARAMS,
  run: (request, node) =>
    runByQuery(request, node, {
      action: ACTION,
      name: 'update_by_query',
      omit: ['created'],
      op: 'index',
    }),
};
