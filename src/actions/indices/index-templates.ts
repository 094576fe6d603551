// Index templates (composable, component and legacy): each route one engine call.
import { route, type ActionSpec } from '../../http/action';

const MASTER = ['master_timeout', 'cluster_manager_timeout'];

export const putIndexTemplate: ActionSpec = {
  action: 'indices:admin/index_template/put',
  routes: [route('PUT', '/_index_template/:name'), route('POST', '/_index_template/:name')],
  params: ['create', 'cause', ...MASTER],
};

export const getIndexTemplate: ActionSpec = {
  action: 'indices:admin/index_template/get',
  routes: [route('GET', '/_index_template'), route('GET', '/_index_template/:name')],
  params: ['flat_settings', 'local', ...MASTER],
};

export const indexTemplateExists: ActionSpec = {
  action: 'indices:admin/index_template/exists',
  routes: [route('HEAD', '/_index_template/:name')],
  params: ['flat_settings', 'local', ...MASTER],
};

export const deleteIndexTemplate: ActionSpec = {
  action: 'indices:admin/index_template/delete',
  routes: [route('DELETE', '/_index_template/:name')],
  params: ['timeout', ...MASTER],
};

export const simulateIndexTemplate: ActionSpec = {
  action: 'indices:admin/index_template/simulate_index',
  routes: [route('POST', '/_index_template/_simulate_index/:name')],
  params: ['create', 'cause', ...MASTER],
};

export const putComponentTemplate: ActionSpec = {
  action: 'cluster:admin/component_template/put',
  routes: [route('PUT', '/_component_template/:name'), route('POST', '/_component_template/:name')],
  params: ['create', 'timeout', ...MASTER],
};

export const getComponentTemplate: ActionSpec = {
  action: 'cluster:admin/component_template/get',
  routes: [route('GET', '/_component_template'), route('GET', '/_component_template/:name')],
  params: ['flat_settings', 'local', ...MASTER],
};

export const componentTemplateExists: ActionSpec = {
  action: 'cluster:admin/component_template/exists',
  routes: [route('HEAD', '/_component_template/:name')],
  params: ['local', ...MASTER],
};

export const deleteComponentTemplate: ActionSpec = {
  action: 'cluster:admin/component_template/delete',
  routes: [route('DELETE', '/_component_template/:name')],
  params: ['timeout', ...MASTER],
};

export const putLegacyTemplate: ActionSpec = {
  action: 'indices:admin/template/put',
  routes: [route('PUT', '/_template/:name'), route('POST', '/_template/:name')],
  params: ['create', 'order', 'cause', ...MASTER],
};

export const getLegacyTemplate: ActionSpec = {
  action: 'indices:admin/template/get',
  routes: [route('GET', '/_template'), route('GET', '/_template/:name')],
  params: ['flat_settings', 'local', ...MASTER],
};

export const legacyTemplateExists: ActionSpec = {
  action: 'indices:admin/template/exists',
  routes: [route('HEAD', '/_template/:name')],
  params: ['flat_settings', 'local', ...MASTER],
};

export const deleteLegacyTemplate: ActionSpec = {
  action: 'indices:admin/template/delete',
  routes: [route('DELETE', '/_template/:name')],
  params: ['timeout', ...MASTER],
};

export const simulateTemplate: ActionSpec = {
  action: 'indices:admin/index_template/simulate',
  routes: [route('POST', '/_index_template/_simulate'), route('POST', '/_index_template/_simulate/:name')],
  params: ['create', 'cause', ...MASTER],
};
