// Every action the node serves, one file each, grouped by area.
import type { ActionSpec } from '../http/action';
import { clusterMain } from './cluster/main';
import { clusterHealth } from './cluster/health';
import { clusterStateAction } from './cluster/state';
import {
  componentTemplateExists,
  deleteComponentTemplate,
  deleteIndexTemplate,
  deleteLegacyTemplate,
  getComponentTemplate,
  getIndexTemplate,
  getLegacyTemplate,
  indexTemplateExists,
  legacyTemplateExists,
  putComponentTemplate,
  putIndexTemplate,
  putLegacyTemplate,
  simulateIndexTemplate,
  simulateTemplate,
} from './indices/index-templates';
import { clusterGetSettings } from './cluster/get-settings';
import { clusterPutSettings } from './cluster/put-settings';
import { indicesCreate } from './indices/create';
import { indicesDelete } from './indices/delete';
import { indicesGet } from './indices/get';
import { indicesExists } from './indices/exists';
import { indicesGetMapping } from './indices/get-mapping';
import { indicesGetFieldMapping } from './indices/get-field-mapping';
import { indicesPutMapping } from './indices/put-mapping';
import { indicesGetSettings } from './indices/get-settings';
import { indicesPutSettings } from './indices/put-settings';
import { indicesAddBlock } from './indices/add-block';
import { indicesClose } from './indices/close';
import { indicesOpen } from './indices/open';
import { indicesRefresh } from './indices/refresh';
import { indicesFlush } from './indices/flush';
import { indicesForceMerge } from './indices/forcemerge';
import { indicesSegments } from './indices/segments';
import { indicesRecovery } from './indices/recovery';
import { indicesStats } from './indices/stats';
import { indicesAnalyze, indicesAnalyzeGet } from './indices/analyze';
import { indicesUpdateAliases } from './indices/update-aliases';
import { indicesPutAlias } from './indices/put-alias';
import { indicesDeleteAlias } from './indices/delete-alias';
import { indicesGetAlias } from './indices/get-alias';
import { indicesExistsAlias } from './indices/exists-alias';
import { catIndices } from './cat/indices';
import { catAliases } from './cat/aliases';
import { catCount } from './cat/count';
import { catHealth } from './cat/health';
import { catTemplates } from './cat/templates';
import { catSegments } from './cat/segments';
import { catShards } from './cat/shards';
import { catRecovery } from './cat/recovery';
import {
  catSnapshots,
  snapshotCleanupRepository,
  snapshotCreate,
  snapshotDelete,
  snapshotDeleteRepository,
  snapshotGet,
  snapshotGetRepository,
  snapshotPutRepository,
  snapshotRestore,
  snapshotStatus,
  snapshotStatusOf,
  snapshotVerifyRepository,
} from './snapshots/repositories';
import { catAllocation, catClusterManager, catNodeattrs, catNodes, catPlugins, catThreadPool } from './cat/node-tables';
import { catFielddata, catPendingTasks, catRepositories } from './cat/empty-tables';
import { catTasks } from './cat/tasks';
import { catIndex } from './cat/cat-index';
import { documentIndex } from './document/index';
import { documentCreate } from './document/create';
import { documentGet } from './document/get';
import { documentExists } from './document/exists';
import { documentGetSource } from './document/get-source';
import { documentDelete } from './document/delete';
import { documentUpdate } from './document/update';
import { documentMget } from './document/mget';
import { documentBulk } from './document/bulk';
import { searchCount } from './search/count';
import { searchSearch } from './search/search';
import { searchMulti } from './search/msearch';
import { searchScroll, searchClearScroll } from './search/scroll';
import { searchExplain } from './search/explain';
import { searchValidateQuery } from './search/validate-query';
import { templatesSearch } from './templates/search-template';
import { templatesRender } from './templates/render-template';
import { templatesMultiSearch } from './templates/msearch-template';
import { templatesPutScript } from './templates/put-script';
import { templatesGetScript } from './templates/get-script';
import { templatesDeleteScript } from './templates/delete-script';
import { tasksList } from './tasks/list';
import { tasksGet } from './tasks/get';
import { tasksCancel } from './tasks/cancel';
import { nodesInfo } from './nodes/info';
import { nodesStats } from './nodes/stats';
import { lronPutConfig } from './lron/put-config';
import { lronGetConfig } from './lron/get-config';
import { lronListConfigs } from './lron/list-configs';
import { lronDeleteConfig } from './lron/delete-config';
import { notificationsCreateConfig } from './notifications/create-config';
import { notificationsUpdateConfig } from './notifications/update-config';
import { notificationsDeleteConfig } from './notifications/delete-config';
import { notificationsGetConfigs } from './notifications/get-configs';
import { notificationsGetChannels } from './notifications/get-channels';
import { notificationsGetFeatures } from './notifications/get-features';
import { notificationsSendTest } from './notifications/send-test';

import { documentReindex } from './document/reindex';
import { indicesClone, indicesShrink, indicesSplit } from './indices/resize';
import { documentDeleteByQuery } from './document/delete-by-query';
import { documentUpdateByQuery } from './document/update-by-query';
import { apiKeyCreate } from './security/api-key-create';
import { apiKeyList } from './security/api-key-list';
import { apiKeyGet } from './security/api-key-get';
import { apiKeyRevoke } from './security/api-key-revoke';
import { securityAuthInfo } from './security/authinfo';
import { securityHealth } from './security/health';
import { configApi } from './security/config-api';

export const ACTIONS: readonly ActionSpec[] = [
  clusterMain,
  clusterHealth,
  clusterStateAction,
  putIndexTemplate,
  getIndexTemplate,
  indexTemplateExists,
  deleteIndexTemplate,
  simulateIndexTemplate,
  simulateTemplate,
  putComponentTemplate,
  getComponentTemplate,
  componentTemplateExists,
  deleteComponentTemplate,
  putLegacyTemplate,
  getLegacyTemplate,
  legacyTemplateExists,
  deleteLegacyTemplate,
  clusterGetSettings,
  clusterPutSettings,
  indicesCreate,
  indicesDelete,
  indicesGet,
  indicesExists,
  indicesGetMapping,
  indicesGetFieldMapping,
  indicesPutMapping,
  indicesGetSettings,
  indicesPutSettings,
  indicesAddBlock,
  indicesClose,
  indicesOpen,
  indicesRefresh,
  indicesFlush,
  indicesForceMerge,
  indicesSegments,
  indicesRecovery,
  indicesStats,
  indicesAnalyze,
  indicesAnalyzeGet,
  indicesUpdateAliases,
  indicesPutAlias,
  indicesDeleteAlias,
  indicesGetAlias,
  indicesExistsAlias,
  catIndices,
  catAliases,
  catCount,
  catHealth,
  catTemplates,
  catSegments,
  catShards,
  catRecovery,
  catSnapshots,
  snapshotGetRepository,
  snapshotPutRepository,
  snapshotDeleteRepository,
  snapshotVerifyRepository,
  snapshotCleanupRepository,
  snapshotStatus,
  snapshotGet,
  snapshotCreate,
  snapshotDelete,
  snapshotRestore,
  snapshotStatusOf,
  catNodes,
  catAllocation,
  catClusterManager,
  catNodeattrs,
  catPlugins,
  catThreadPool,
  catTasks,
  catPendingTasks,
  catFielddata,
  catRepositories,
  catIndex,
  documentIndex,
  documentCreate,
  documentGet,
  documentExists,
  documentGetSource,
  documentDelete,
  documentUpdate,
  documentMget,
  documentBulk,
  searchCount,
  searchSearch,
  searchMulti,
  templatesSearch,
  templatesRender,
  templatesMultiSearch,
  templatesPutScript,
  templatesGetScript,
  templatesDeleteScript,
  tasksList,
  tasksGet,
  tasksCancel,
  searchScroll,
  searchClearScroll,
  searchExplain,
  searchValidateQuery,
  nodesStats,
  nodesInfo,
  documentReindex,
  indicesClone,
  indicesShrink,
  indicesSplit,
  documentDeleteByQuery,
  documentUpdateByQuery,
  apiKeyCreate,
  apiKeyList,
  apiKeyGet,
  apiKeyRevoke,
  securityAuthInfo,
  securityHealth,
  ...configApi('internalusers'),
  ...configApi('roles'),
  ...configApi('rolesmapping'),
  ...configApi('actiongroups'),
  lronPutConfig,
  lronGetConfig,
  lronListConfigs,
  lronDeleteConfig,
  notificationsCreateConfig,
  notificationsUpdateConfig,
  notificationsDeleteConfig,
  notificationsGetConfigs,
  notificationsGetChannels,
  notificationsGetFeatures,
  notificationsSendTest,
];
