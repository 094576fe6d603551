import { route, type ActionSpec } from '../../http/action';

export const indicesGetFieldMapping: ActionSpec = {
  action: 'indices:admin/mappings/fields/get',
  routes: [route('GET', '/_mapping/field/:fields'), route('GET', '/:index/_mapping/field/:fields')],
  params: ['include_defaults', 'local', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
