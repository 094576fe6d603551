// The one request pipeline every route goes through:
//   parse → authenticate → authorize → register task → execute → respond → unregister.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionRequest, ActionSpec } from './action';
import type { NodeContext } from '../node-context';
import type { EngineParams } from '../engine';
import { authenticate } from '../security/authenticate';
import { authorize } from '../security/authorize';
import { bodyOf, hasUnreadBody, rawBody } from './raw-body';
import { unrecognizedParameters, unsupportedContentType } from './error-table';
import { parseBoolParam } from './common-params';
import { shapeResponse } from './pretty';
import { renderError } from './render-error';

const SMALL_BODY = 8 * 1024;

const UNIVERSAL = ['pretty', 'human', 'error_trace', 'filter_path'] as const;

function queryParams(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const q = request.query as Record<string, string | string[] | undefined>;
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    // A repeated parameter keeps its last value, as OpenSearch's query-string decoder does.
    out[k] = Array.isArray(v) ? (v[v.length - 1] ?? '') : v;
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

export function registerAction(app: FastifyInstance, node: NodeContext, spec: ActionSpec): void {
  const accepted = new Set<string>([...spec.params, ...UNIVERSAL]);
  const engineAction = spec.engineAction ?? spec.action;
  const limit = node.config.http.maxContentLength;

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const query = queryParams(request);
    let errorTrace = false;
    let pretty = false;
    try {
      errorTrace = query.error_trace !== undefined && parseBoolParam('error_trace', query.error_trace);
      pretty = query.pretty !== undefined ? parseBoolParam('pretty', query.pretty) : spec.prettyByDefault === true;
      // 1. parse
      const unknown = Object.keys(query).filter((k) => !accepted.has(k));
      if (unknown.length > 0) {
        throw unrecognizedParameters(pathOf(request), unknown, [...accepted]);
      }
      const filterPath = query.filter_path;
      const params: EngineParams = {};
      for (const k in query) {
        if (k !== 'pretty' && k !== 'error_trace' && k !== 'filter_path') params[k] = query[k] as string;
      }
      const pathParams = request.params as Record<string, string>;
      for (const k in pathParams) params[k] = pathParams[k] as string;
      if (spec.fixedParams !== undefined) Object.assign(params, spec.fixedParams);
      // Only GET and HEAD bodies need reading here; fastify has read the others already.
      const body = Buffer.isBuffer(request.body) || !hasUnreadBody(request)
        ? bodyOf(request)
        : await rawBody(request, limit);
      const contentType = request.headers['content-type'];
      if (body !== undefined && contentType !== undefined && !acceptedContentType(contentType)) {
        throw unsupportedContentType(contentType);
      }
      // 2-3. who is asking, and may they
      const principal = authenticate(request);
      authorize(principal, spec.action, params.index === undefined ? [] : params.index.split(','));
      // 4. the request is a task while it runs
      const opaque = request.headers['x-opaque-id'];
      const task = node.tasks.register(spec.action, typeof opaque === 'string' ? opaque : undefined);
      try {
        // 5. execute
        const actionRequest: ActionRequest = {
          params,
          body,
          pretty,
          get signal() {
            return task.signal;
          },
        };
        const result = spec.run
          ? await spec.run(actionRequest, node)
          : await node.engine.execute(engineAction, params, body);
        // 6. respond
        reply.code(result.status);
        if (typeof opaque === 'string') reply.header('X-Opaque-Id', opaque);
        if (result.location) reply.header('Location', result.location);
        if (request.method === 'HEAD') {
          reply.header('content-type', 'application/json; charset=UTF-8');
          reply.header('content-length', String(result.body.length));
          return reply.send();
        }
        const isText = spec.output === 'text' && params.format !== 'json';
        reply.header('content-type', isText ? 'text/plain; charset=UTF-8' : 'application/json; charset=UTF-8');
        const preShaped = spec.prettyByDefault === true && filterPath === undefined;
        const shaped = isText || preShaped ? result.body : shapeResponse(result.body, { pretty, filterPath });
        // Node writes a string body in the same packet as the headers but a Buffer in a second
        // write; small bodies (most answers) go as strings.
        return reply.send(shaped.length <= SMALL_BODY ? shaped.toString('utf8') : shaped);
      } finally {
        // 7. done
        node.tasks.unregister(task);
      }
    } catch (err) {
      const { status, body, headers } = renderError(err, { errorTrace, pretty });
      reply.code(status).headers(headers).header('content-type', 'application/json; charset=UTF-8');
      return reply.send(request.method === 'HEAD' ? undefined : body);
    }
  };

  for (const r of spec.routes) {
    app.route({ method: r.method, url: r.path, handler });
  }
}
