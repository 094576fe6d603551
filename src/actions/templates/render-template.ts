import { route, type ActionSpec } from '../../http/action';

export const templatesRender: ActionSpec = {
  action: 'indices:data/read/search/template/render',
  routes: [
    route('GET', '/_render/template'),
    route('POST', '/_render/template'),
    route('GET', '/_render/template/:id'),
    route('POST', '/_render/template/:id'),
  ],
  params: [],
};
