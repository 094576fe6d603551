// The snapshot APIs on a node with no snapshot repositories: Quarry has no `path.repo` and no
// repository types, so it answers as an OpenSearch node with none configured does. Listing finds
// nothing, naming a repository finds it missing, and creating one is refused in OpenSearch's
// words (`fs` for its location outside an empty `path.repo`, any other type as one that does not
// exist).
import { route, type ActionSpec } from '../../http/action';
import { jsonResponse } from '../../http/json-response';
import { readJsonObject } from '../../http/json-body';
import { repositoryMissing, repositoryNotCreated, repositoryTypeMissing, validationFailed } from '../../http/error-table';

const TIMEOUTS = ['master_timeout', 'cluster_manager_timeout'] as const;

/** The first repository a name expression names outright: `_all` and patterns match none here. */
function named(expr: string | undefined): string | undefined {
  if (expr === undefined || expr === '_all') return undefined;
  return expr.split(',').find((part) => !part.includes('*'));
}

function missing(expr: string | undefined): never {
  throw repositoryMissing(expr === undefined ? '_all' : (expr.split(',')[0] ?? expr));
}

export const snapshotGetRepository: ActionSpec = {
  action: 'cluster:admin/repository/get',
  routes: [route('GET', '/_snapshot'), route('GET', '/_snapshot/:repository')],
  params: [...TIMEOUTS, 'local'],
  run: (request) => {
    const name = named(request.params.repository);
    if (name !== undefined) throw repositoryMissing(name);
    return jsonResponse({});
  },
};

export const snapshotPutRepository: ActionSpec = {
  action: 'cluster:admin/repository/put',
  routes: [route('PUT', '/_snapshot/:repository'), route('POST', '/_snapshot/:repository')],
  params: [...TIMEOUTS, 'timeout', 'verify'],
  run: (request) => {
    const name = request.params.repository ?? '';
    const body = readJsonObject(request.body, true);
    const type = body.type;
    if (typeof type !== 'string' || type === '') throw validationFailed(['type is missing']);
    if (type !== 'fs') throw repositoryTypeMissing(name, type);
    const settings = (body.settings ?? {}) as Record<string, unknown>;
    const location = settings.location;
    if (typeof location !== 'string' || location === '') throw repositoryNotCreated(name, 'missing location');
    throw repositoryNotCreated(name, `location [${location}] doesn't match any of the locations specified by path.repo because this setting is empty`);
  },
};

/** The APIs on one named repository (or a snapshot of it): the repository is missing. */
function onRepository(action: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', paths: readonly string[], params: readonly string[]): ActionSpec {
  return {
    action,
    routes: paths.map((p) => route(method, p)),
    params: [...TIMEOUTS, ...params],
    run: (request) => missing(request.params.repository),
  };
}

export const snapshotDeleteRepository = onRepository('cluster:admin/repository/delete', 'DELETE', ['/_snapshot/:repository'], ['timeout']);
export const snapshotVerifyRepository = onRepository('cluster:admin/repository/verify', 'POST', ['/_snapshot/:repository/_verify'], ['timeout']);
export const snapshotCleanupRepository = onRepository('cluster:admin/repository/_cleanup', 'POST', ['/_snapshot/:repository/_cleanup'], ['timeout']);
export const snapshotGet = onRepository('cluster:admin/snapshot/get', 'GET', ['/_snapshot/:repository/:snapshot'], ['ignore_unavailable', 'verbose']);
export const snapshotCreate: ActionSpec = {
  ...onRepository('cluster:admin/snapshot/create', 'PUT', ['/_snapshot/:repository/:snapshot'], ['wait_for_completion']),
  routes: [route('PUT', '/_snapshot/:repository/:snapshot'), route('POST', '/_snapshot/:repository/:snapshot')],
};
export const snapshotDelete = onRepository('cluster:admin/snapshot/delete', 'DELETE', ['/_snapshot/:repository/:snapshot'], []);
export const snapshotRestore = onRepository('cluster:admin/snapshot/restore', 'POST', ['/_snapshot/:repository/:snapshot/_restore'], ['wait_for_completion']);
export const snapshotStatusOf = onRepository('cluster:admin/snapshot/status', 'GET', ['/_snapshot/:repository/:snapshot/_status'], ['ignore_unavailable']);

/** `GET /_snapshot[/<repository>]/_status`: the snapshots running now, none. */
export const snapshotStatus: ActionSpec = {
  action: 'cluster:admin/snapshot/status',
  routes: [route('GET', '/_snapshot/_status'), route('GET', '/_snapshot/:repository/_status')],
  params: [...TIMEOUTS, 'ignore_unavailable'],
  run: () => jsonResponse({ snapshots: [] }),
};

/** `GET /_cat/snapshots/<repository>`: the repository is missing; without one, OpenSearch's validation. */
export const catSnapshots: ActionSpec = {
  action: 'cluster:admin/snapshot/get',
  routes: [route('GET', '/_cat/snapshots'), route('GET', '/_cat/snapshots/:repository')],
  params: [...TIMEOUTS, 'format', 'h', 'help', 'ignore_unavailable', 's', 'time', 'v'],
  output: 'text',
  helpLeaves: 'repository',
  run: (request, node) => {
    // `help` lists the columns a repository's snapshots would have.
    if (request.params.help !== undefined && request.params.help !== 'false') return node.engine.execute('cat:snapshots', request.params);
    if (request.params.repository === undefined) throw validationFailed(['repository is missing']);
    return missing(request.params.repository);
  },
};
