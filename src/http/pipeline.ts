// The one request pipeline every route goes through:
//   parse → authenticate → authorize → register task → execute → respond → unregister.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionRequest, ActionSpec } from './action';
import type { NodeContext } from '../node-context';
import type { EngineParams, EngineResponse } from '../engine';
import type { Task } from '../tasks/task-manager';
import { authenticate } from '../security/authenticate';
import { authorize, authorizeItems } from '../security/authorize';
import { carriesItems } from '../security/item-targets';
import type { Principal } from '../security/principal';
import { lingerOnRefusedBody } from './linger';
import { bodyOf, hasUnreadBody, joinBody, rawBody, type RawBody } from './raw-body';
import { unrecognizedParameters, unsupportedContentType } from './error-table';
import { parseBoolParam } from './common-params';
import { shapeResponse } from './pretty';
import { renderError } from './render-error';

const UNIVERSAL = ['pretty', 'human', 'error_trace', 'filter_path'] as const;

/** `run` has not authenticated the request yet. */
const UNASKED: unique symbol = Symbol('unasked');

function queryParams(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const q = request.query as Record<string, string | string[] | undefined>;
  for (const k in q) {
    const v = q[k];
    if (v === undefined) continue;
    // A repeated parameter keeps its last value, as OpenSearch's query-string decoder does.
    out[k] = typeof v === 'string' ? v : (v[v.length - 1] ?? '');
  }
  return out;
}

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

// What OpenSearch's REST layer accepts as a body (JSON and its binary forms, NDJSON, YAML).
const ACCEPTED_MEDIA_TYPES = new Set([
  'application/json',
  'application/x-ndjson',
  'application/yaml',
  'application/cbor',
  'application/smile',
  'application/vnd.opensearch+json',
  'application/vnd.opensearch+x-ndjson',
]);

function acceptedContentType(header: string): boolean {
  const media = (header.split(';')[0] ?? '').trim().toLowerCase();
  return ACCEPTED_MEDIA_TYPES.has(media);
}

/**
 * What a TS-side action sees. A class, not an object literal with a `signal` getter: V8 gives
 * every such literal its own hidden class (a fresh closure in a fresh accessor pair), which
 * made each request allocate maps in old space and tripled the scavenger's work on `GET /`.
 */
class PipelineRequest implements ActionRequest {
  constructor(
    readonly params: EngineParams,
    readonly body: Buffer | undefined,
    readonly pretty: boolean,
    readonly task: Task,
    readonly principal: Principal | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.task.signal;
  }
}

const JSON_TYPE = 'application/json; charset=UTF-8';
// Bodies from this size on are handed back to the engine once written (`Engine.recycle`);
// smaller ones cost V8 little and the GC takes them.
const RECYCLE_MIN_BYTES = 4096;
const TEXT_TYPE = 'text/plain; charset=UTF-8';

function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown, errorTrace: boolean, pretty: boolean): void {
  const { status, body, headers, contentType } = renderError(err, { errorTrace, pretty });
  reply.code(status).headers(headers).header('content-type', contentType);
  // OpenSearch echoes the caller's X-Opaque-Id on failures too
  const opaque = request.headers['x-opaque-id'];
  if (typeof opaque === 'string') reply.header('X-Opaque-Id', opaque);
  reply.send(request.method === 'HEAD' ? undefined : body);
}

export function registerAction(app: FastifyInstance, node: NodeContext, spec: ActionSpec): void {
  const accepted = new Set<string>([...spec.params, ...UNIVERSAL]);
  // Each parameter read only beside another, and that other one.
  const triggerOf = new Map<string, string>();
  for (const [trigger, names] of Object.entries(spec.paramsWith ?? {})) for (const n of names) triggerOf.set(n, trigger);
  const allowed = (k: string, query: Record<string, string>): boolean => {
    if (accepted.has(k)) return true;
    const trigger = triggerOf.get(k);
    return trigger !== undefined && query[trigger] !== undefined;
  };
  const engineAction = spec.engineAction ?? spec.action;
  // Whether the body carries targets of its own (bulk, multi-get, multi-search) to authorize.
  const composite = carriesItems(spec.action);
  const cancellable = spec.cancellable === true;
  // 7. the task ends; a cancel that reached the engine after its request finished is dropped.
  const end = (t: Task): void => {
    node.tasks.unregister(t);
    if (t.inEngine && t.cancelled) node.engine.forgetCancel(t.id);
  };
  const limit = node.config.http.maxContentLength;

  // The handler stays synchronous up to the engine call and settles through one `then`: an
  // async handler would cost fastify a promise wrapper and each `await` a microtask turn, per
  // request. Answers that need no engine (`GET /`) are sent before the handler returns.
  const handler = (request: FastifyRequest, reply: FastifyReply): void => {
    const query = queryParams(request);
    let errorTrace = false;
    let pretty = false;
    try {
      errorTrace = query.error_trace !== undefined && parseBoolParam('error_trace', query.error_trace);
      pretty = query.pretty !== undefined ? parseBoolParam('pretty', query.pretty) : spec.prettyByDefault === true;
      // 1. parse
      for (const k in query) {
        if (!allowed(k, query)) {
          const candidates = [...accepted, ...[...triggerOf.keys()].filter((n) => allowed(n, query))];
          throw unrecognizedParameters(pathOf(request), Object.keys(query).filter((q) => !allowed(q, query)), candidates);
        }
      }
      const params: EngineParams = {};
      for (const k in query) {
        if (k !== 'pretty' && k !== 'error_trace' && k !== 'filter_path') params[k] = query[k] as string;
      }
      const pathParams = request.params as Record<string, string>;
      for (const k in pathParams) params[k] = pathParams[k] as string;
      if (spec.helpLeaves !== undefined && query.help !== undefined && query.help !== 'false' && Object.keys(pathParams).length > 0) {
        throw unrecognizedParameters(pathOf(request), [spec.helpLeaves], []);
      }
      if (spec.fixedParams !== undefined) Object.assign(params, spec.fixedParams);
      // Only GET and HEAD bodies need reading here; fastify has read the others already.
      if (request.body == null && hasUnreadBody(request)) {
        rawBody(request, limit).then(
          (body) => run(request, reply, query, params, body, errorTrace, pretty),
          (err: unknown) => {
            lingerOnRefusedBody(request, reply);
            sendError(request, reply, err, errorTrace, pretty);
          },
        );
        return;
      }
      run(request, reply, query, params, bodyOf(request), errorTrace, pretty);
    } catch (err) {
      sendError(request, reply, err, errorTrace, pretty);
    }
  };

  // Called first without a principal (`UNASKED`): it checks the body's type and authenticates;
  // a credential that needs a bcrypt check calls it again with the principal once known.
  const run = (
    request: FastifyRequest,
    reply: FastifyReply,
    query: Record<string, string>,
    params: EngineParams,
    body: RawBody | undefined,
    errorTrace: boolean,
    pretty: boolean,
    who: Principal | undefined | typeof UNASKED = UNASKED,
  ): void => {
    let task: Task | undefined;
    try {
      let principal: Principal | undefined;
      if (who === UNASKED) {
        const contentType = request.headers['content-type'];
        if (body !== undefined && contentType !== undefined && !acceptedContentType(contentType)) {
          throw unsupportedContentType(contentType);
        }
        // 2. who is asking (a credential seen before answers at once; a new one is checked off the loop)
        const security = node.security;
        const known = security === undefined || spec.unauthenticated === true ? undefined : authenticate(security, request);
        if (known instanceof Promise) {
          known.then(
            (p) => run(request, reply, query, params, body, errorTrace, pretty, p),
            (err: unknown) => sendError(request, reply, err, errorTrace, pretty),
          );
          return;
        }
        principal = known;
      } else principal = who;
      // 3. may they
      if (principal !== undefined) {
        authorize(principal, spec.action, params.index === undefined ? [] : params.index.split(','));
        if (composite) authorizeItems(principal, spec.action, joinBody(body), params.index);
      }
      // 4. the request is a task while it runs
      const opaque = request.headers['x-opaque-id'];
      const opaqueId = typeof opaque === 'string' ? opaque : undefined;
      const t = node.tasks.register(spec.action, opaqueId, cancellable);
      task = t;
      // 5. execute (a cancellable engine request runs under its task id, for the tasks API)
      let result: EngineResponse | Promise<EngineResponse>;
      if (spec.run) result = spec.run(new PipelineRequest(params, joinBody(body), pretty, t, principal), node);
      else if (cancellable) {
        t.inEngine = true;
        result = node.engine.execute(engineAction, params, body, t.id);
      } else result = node.engine.execute(engineAction, params, body);
      if (!(result instanceof Promise)) {
        node.tasks.unregister(t);
        respond(request, reply, result, query, params, opaqueId, pretty);
        return;
      }
      result.then(
        (r) => {
          end(t);
          try {
            respond(request, reply, r, query, params, opaqueId, pretty);
          } catch (err) {
            sendError(request, reply, err, errorTrace, pretty);
          }
        },
        (err: unknown) => {
          end(t);
          sendError(request, reply, err, errorTrace, pretty);
        },
      );
    } catch (err) {
      // 7. done (the task, if registered, ends with its error)
      if (task !== undefined) node.tasks.unregister(task);
      sendError(request, reply, err, errorTrace, pretty);
    }
  };

  // A body straight from the engine is its response's alone; one a `run` made may be kept.
  const ownBodies = spec.run === undefined;
  // 6. respond: the engine's bytes as they are, shaped only when filter_path or pretty asks.
  const respond = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: EngineResponse,
    query: Record<string, string>,
    params: EngineParams,
    opaqueId: string | undefined,
    pretty: boolean,
  ): void => {
    reply.code(result.status);
    if (opaqueId !== undefined) reply.header('X-Opaque-Id', opaqueId);
    if (result.location) reply.header('Location', result.location);
    if (request.method === 'HEAD') {
      reply.header('content-type', JSON_TYPE);
      reply.header('content-length', String(result.body.length));
      reply.send();
      return;
    }
    // `help` lists a table's columns as text whatever the format.
    const isText = spec.output === 'text' && (params.format !== 'json' || (params.help !== undefined && params.help !== 'false'));
    reply.header('content-type', isText ? TEXT_TYPE : JSON_TYPE);
    const filterPath = query.filter_path;
    const preShaped = spec.prettyByDefault === true && filterPath === undefined;
    const body = isText || preShaped ? result.body : shapeResponse(result.body, { pretty, filterPath });
    reply.send(body);
    if (ownBodies && body === result.body && body.length >= RECYCLE_MIN_BYTES) {
      // Written through to the socket as a rule; a body still queued behind a slow reader is
      // freed once the response finishes (or left to the GC if the connection drops first).
      const raw = reply.raw;
      if (raw.writableFinished) node.engine.recycle(body);
      else raw.once('finish', () => node.engine.recycle(body));
    }
  };

  for (const r of spec.routes) {
    app.route({ method: r.method, url: r.path, handler });
  }
}
