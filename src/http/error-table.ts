// The TS layer's one table of errors, with OpenSearch's wording and statuses. Engine errors come
// from the engine's own table (crates/engine/src/error.rs); everything the TypeScript layer
// raises is built here.
import { OpenSearchError, type ErrorCause } from './errors';
import { levenshteinSimilarity } from './levenshtein';

/** Java's String.compareTo: UTF-16 code unit order (not locale order). */
function javaCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `request [/x] contains unrecognized parameter: [a] -> did you mean [b]?`, built as OpenSearch's
 * BaseRestHandler does: invalid names in sorted order; for each, the candidates with Lucene
 * Levenshtein similarity above 0.5, best first (ties by name); one suggestion as `[b]`, several
 * as `any of [b, c]`.
 */
export function unrecognizedParameters(path: string, names: readonly string[], candidates: readonly string[]): OpenSearchError {
  const invalid = [...new Set(names)].sort(javaCompare);
  const pool = [...new Set(candidates)];
  const parts = invalid.map((name) => {
    const scored = pool
      .map((candidate) => ({ candidate, score: levenshteinSimilarity(name, candidate) }))
      .filter((x) => x.score > 0.5)
      .sort((x, y) => y.score - x.score || javaCompare(x.candidate, y.candidate))
      .map((x) => x.candidate);
    let text = `[${name}]`;
    if (scored.length === 1) text += ` -> did you mean [${scored[0]}]?`;
    else if (scored.length > 1) text += ` -> did you mean any of [${scored.join(', ')}]?`;
    return text;
  });
  const noun = invalid.length > 1 ? 'parameters' : 'parameter';
  return illegalArgument(`request [${path}] contains unrecognized ${noun}: ${parts.join(', ')}`);
}

/**
 * A body over `http.max_content_length`. OpenSearch (Netty) answers a bare 413 with an empty body;
 * Quarry keeps the status and says what the limit is, so a client can split its bulk.
 */
export function contentTooLong(size: number | undefined, limit: number): OpenSearchError {
  const shown = size === undefined ? '' : ` [${size}]`;
  return new OpenSearchError(
    413,
    'content_too_long_exception',
    `request content length${shown} exceeds the limit of [${limit}] bytes set by [http.max_content_length]`,
  );
}

/** `RestRequest.requiredContent()`: the action needs a body and none was sent. */
export function bodyRequired(): OpenSearchError {
  return new OpenSearchError(400, 'parse_exception', 'request body is required');
}

/** `RestRequest.contentOrSourceParam()`: neither a body nor `source` was sent. */
export function bodyOrSourceRequired(): OpenSearchError {
  return new OpenSearchError(400, 'parse_exception', 'request body or source parameter is required');
}

/** A body sent to an action that takes none. */
export function bodyNotSupported(method: string, path: string): OpenSearchError {
  return illegalArgument(`request [${method} ${path}] does not support having a body`);
}

export function illegalArgument(reason: string, causedBy?: ErrorCause): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', reason, {}, causedBy);
}

/** `OpenSearchStatusException`: a reason with an explicit status. */
export function statusException(status: number, reason: string): OpenSearchError {
  return new OpenSearchError(status, 'status_exception', reason);
}

/** No route for the path at all: a bare 400 `{"error":"…"}` without `status`. */
export function noHandlerFound(method: string, uri: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', `no handler found for uri [${uri}] and method [${method}]`, {}, undefined, {
    plain: true,
    plainStatus: false,
  });
}

/** A path OpenSearch cannot decode. Same bare shape as `noHandlerFound`. */
export function invalidUri(): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', 'invalid uri has been requested', {}, undefined, {
    plain: true,
    plainStatus: false,
  });
}

/**
 * The path exists with other methods: 405 `{"error":"Incorrect HTTP method for uri [/] and method
 * [PATCH], allowed: [GET, POST]","status":405}` plus an `Allow: GET,POST` header.
 */
export function methodNotAllowed(method: string, uri: string, allowed: readonly string[]): OpenSearchError {
  const methods = [...new Set(allowed)];
  return new OpenSearchError(
    405,
    'illegal_argument_exception',
    `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${methods.join(', ')}]`,
    {},
    undefined,
    { plain: true, httpHeaders: { Allow: methods.join(',') } },
  );
}

/** 406 for a body in a media type OpenSearch does not read. */
export function unsupportedContentType(contentType: string): OpenSearchError {
  return new OpenSearchError(406, 'illegal_argument_exception', `Content-Type header [${contentType}] is not supported`, {}, undefined, true);
}

/** `Booleans.parseBoolean`: only `true` and `false`. */
export function badBoolean(value: string): OpenSearchError {
  return illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** Java's NumberFormatException as a cause. */
export function numberFormatCause(value: string): ErrorCause {
  return { type: 'number_format_exception', reason: `For input string: "${value}"` };
}

/** `RestRequest.paramAsInt/Long/Float/Double` on a value that is not a number of that kind. */
export function badNumberParam(kind: 'int' | 'long' | 'float' | 'double', name: string, value: string): OpenSearchError {
  return illegalArgument(`Failed to parse ${kind} parameter [${name}] with value [${value}]`, numberFormatCause(value));
}

/** `IndexNotFoundException`: with a reason it reads `no such index [x] and <reason>`. */
export function indexNotFound(index: string, reason?: string): OpenSearchError {
  if (reason !== undefined) {
    return new OpenSearchError(404, 'index_not_found_exception', `no such index [${index}] and ${reason}`, { index, index_uuid: '_na_' });
  }
  return new OpenSearchError(404, 'index_not_found_exception', `no such index [${index}]`, {
    index,
    'resource.id': index,
    'resource.type': 'index_or_alias',
    index_uuid: '_na_',
  });
}

export function resourceNotFound(reason: string): OpenSearchError {
  return new OpenSearchError(404, 'resource_not_found_exception', reason);
}

/** A snapshot repository the node does not have (it has none). */
export function repositoryMissing(name: string): OpenSearchError {
  return new OpenSearchError(404, 'repository_missing_exception', `[${name}] missing`);
}

/** A repository that cannot be created, wrapped as OpenSearch's `failed to create repository`. */
export function repositoryNotCreated(name: string, reason: string): OpenSearchError {
  return new OpenSearchError(500, 'repository_exception', `[${name}] failed to create repository`, {}, { type: 'repository_exception', reason: `[${name}] ${reason}` });
}

/** A repository type the node lacks. */
export function repositoryTypeMissing(name: string, type: string): OpenSearchError {
  return new OpenSearchError(500, 'repository_exception', `[${name}] repository type [${type}] does not exist`);
}

/** `ActionRequestValidationException`: `Validation Failed: 1: first;2: second;`. */
export function validationFailed(errors: readonly string[]): OpenSearchError {
  const reason = `Validation Failed: ${errors.map((e, i) => `${i + 1}: ${e};`).join('')}`;
  return new OpenSearchError(400, 'action_request_validation_exception', reason);
}

/** `TaskId`'s parse of a `<node>:<number>` id that is not one. */
export function malformedTaskId(id: string): OpenSearchError {
  return illegalArgument(`malformed task id ${id}`);
}

/**
 * `GET /_tasks/<id>` of a task that is not running: OpenSearch then looks for its stored result
 * in the `.tasks` index, which a node that stores none does not have.
 */
export function taskNotFound(id: string, node: string, onThisNode: boolean, resultsIndexExists = false): OpenSearchError {
  const noTasksIndex: ErrorCause = {
    type: 'index_not_found_exception',
    reason: 'no such index [.tasks]',
    extra: { index: '.tasks', 'resource.id': '.tasks', 'resource.type': 'index_expression', index_uuid: '_na_' },
  };
  const notStored: ErrorCause = { type: 'resource_not_found_exception', reason: `task [${id}] isn't running and hasn't stored its results`, causedBy: noTasksIndex };
  if (onThisNode) return new OpenSearchError(404, notStored.type, notStored.reason, {}, resultsIndexExists ? undefined : noTasksIndex);
  return new OpenSearchError(
    404,
    'resource_not_found_exception',
    `task [${id}] belongs to the node [${node}] which isn't part of the cluster and there is no record of the task`,
    {},
    notStored,
  );
}

// ---- security ----

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="OpenSearch Security"' };

/** The basic domain's challenge: `text/plain` `Unauthorized`, as the security plugin answers. */
export function unauthorized(): OpenSearchError {
  return new OpenSearchError(401, 'security_exception', 'Unauthorized', {}, undefined, { text: true, httpHeaders: BASIC_CHALLENGE });
}

/** No domain authenticated the request and none challenges. */
export function authenticationFinallyFailed(): OpenSearchError {
  return new OpenSearchError(401, 'security_exception', 'Authentication finally failed', {}, undefined, { text: true });
}

/**
 * A presented API key that does not authenticate. OpenSearch falls through to the basic
 * challenge and never says why; Quarry says why, in the envelope (README, "Differences").
 */
export function apiKeyRejected(reason: string, challenge: boolean): OpenSearchError {
  return new OpenSearchError(401, 'security_exception', reason, {}, undefined, challenge ? { httpHeaders: BASIC_CHALLENGE } : {});
}

/** `User [name=n, backend_roles=[a, b], requestedTenant=null]`, as the security plugin prints a user. */
export function describeUser(name: string, backendRoles: readonly string[]): string {
  return `User [name=${name}, backend_roles=[${backendRoles.join(', ')}], requestedTenant=null]`;
}

export function noPermissions(actions: readonly string[], name: string, backendRoles: readonly string[]): OpenSearchError {
  return new OpenSearchError(403, 'security_exception', `no permissions for [${actions.join(', ')}] and ${describeUser(name, backendRoles)}`);
}

export function apiKeysDisabled(): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', 'The API key feature is disabled on this node ([plugins.security.apikey.enabled] is false)');
}

export function apiKeyNotFound(id: string): OpenSearchError {
  return resourceNotFound(`API key [${id}] not found`);
}

export function apiKeyRolesNotHeld(kind: 'security_roles' | 'backend_roles', roles: readonly string[], name: string, backendRoles: readonly string[]): OpenSearchError {
  return new OpenSearchError(
    403,
    'security_exception',
    `no permissions to grant [${kind}] [${roles.join(', ')}] to an API key: ${describeUser(name, backendRoles)} does not hold them`,
  );
}
