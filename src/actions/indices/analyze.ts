import { route, type ActionSpec } from '../../http/action';

const PARAMS = ['index', 'analyzer', 'attributes', 'char_filter', 'explain', 'field', 'filter', 'normalizer', 'text', 'tokenizer'];

/** `_analyze` by POST: never cached. */
export const indicesAnalyze: ActionSpec = {
  action: 'indices:admin/analyze',
  routes: [route('POST', '/_analyze'), route('POST', '/:index/_analyze')],
  params: PARAMS,
};

/** `_analyze` by GET: the engine caches the answer per index until its analysis settings change. */
export const indicesAnalyzeGet: ActionSpec = {
  action: 'indices:admin/analyze',
  routes: [route('GET', '/_analyze'), route('GET', '/:index/_analyze')],
  params: PARAMS,
  fixedParams: { __cache: 'true' },
};
