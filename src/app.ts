// buildApp(config): the fastify instance with every plugin and action, without listening, so
// tests inject requests into it and server.ts binds it to a socket.
import fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { ACTIONS } from './actions';
import type { NodeConfig } from './config';
import { Engine } from './engine';
import { registerAction } from './http/pipeline';
import { lingerOnRefusedBody } from './http/linger';
import { bodyParser } from './http/raw-body';
import { renderError } from './http/render-error';
import { contentTooLong, methodNotAllowed, noHandlerFound } from './http/error-table';
import { TaskManager } from './tasks/task-manager';
import { TaskResults } from './tasks/task-results';
import { LronNotifier } from './lron/lron-notifier';
import { Notifications } from './notifications/notifications';
import type { NodeContext } from './node-context';
import type { Security } from './security/security';

export interface App {
  readonly fastify: FastifyInstance;
  readonly node: NodeContext;
  close(): Promise<void>;
}

/** OpenSearch's `RestRequest.Method` order, in which a 405 lists the allowed methods. */
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH'] as const;

/** Turns `/:index/_doc/:id` into a matcher, to tell "no such route" from "wrong method". */
function pathMatcher(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** An error answered outside the action pipeline (routing, body limits), OpenSearch-rendered. */
async function sendError(reply: FastifyReply, err: unknown, headOnly = false): Promise<void> {
  const { status, body, headers, contentType } = renderError(err, { errorTrace: false });
  const opaque = reply.request.headers['x-opaque-id'];
  if (typeof opaque === 'string') reply.header('X-Opaque-Id', opaque);
  await reply.code(status).headers(headers).header('content-type', contentType).send(headOnly ? undefined : body);
}

/**
 * `security` is what `prepareSecurity(config)` made; it must be given unless the settings disable
 * security, so no caller can drop it by accident.
 */
export function buildApp(config: NodeConfig, security?: Security): App {
  if (config.security.enabled && security === undefined) {
    throw new Error('security is enabled: pass prepareSecurity(config) to buildApp, or set plugins.security.disabled: true');
  }
  const engine = Engine.open({
    dataPath: config.path.data,
    nodeName: config.node.name,
    clusterName: config.cluster.name,
    autoCreateIndex: config.action.autoCreateIndex,
    host: config.network.host,
  });
  const taskResults = new TaskResults(config.path.data);
  const notifications = Notifications.open(config);
  const lron = LronNotifier.open(config, notifications);
  const node: NodeContext = { config, engine, tasks: new TaskManager(taskResults.highestId + 1), taskResults, security, notifications, lron };
  const tls = security?.tls;
  const app = fastify({
    // A client certificate is asked for but not required: it only matters to the admin DN check.
    ...(tls === undefined ? {} : { https: { key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: false } }),
    bodyLimit: config.http.maxContentLength,
    exposeHeadRoutes: false,
    // Index names reach 255 bytes and ids 512; the default of 100 would 404 them.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    return503OnClosing: true,
    logger: false,
  });

  // Bodies stay raw bytes, in the chunks they arrived in: the engine joins and parses them (and
  // NDJSON) itself, off the event loop.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', bodyParser(config.http.maxContentLength));

  const methodsByPath: Array<{ re: RegExp; method: string }> = [];
  const literalMethods = new Map<string, Set<string>>();
  for (const spec of ACTIONS) {
    registerAction(app, node, spec);
    for (const r of spec.routes) {
      methodsByPath.push({ re: pathMatcher(r.path), method: r.method });
      if (!r.path.includes(':')) literalMethods.set(r.path, (literalMethods.get(r.path) ?? new Set()).add(r.method));
    }
  }
  // OpenSearch's router prefers a literal path: `GET /_bulk` is 405 (POST and PUT only), never
  // `GET /<index>` on an index named `_bulk`. fastify would take the parametric route, so each
  // literal path gets the methods it lacks as 405 routes (no cost on other requests).
  for (const [path, methods] of literalMethods) {
    const allowed = METHOD_ORDER.filter((m) => methods.has(m));
    for (const method of METHOD_ORDER.filter((m) => !methods.has(m))) {
      app.route({
        method,
        url: path,
        handler: (request, reply) => sendError(reply, methodNotAllowed(request.method, path, allowed), request.method === 'HEAD'),
      });
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(methodsByPath.filter((m) => m.re.test(path)).map((m) => m.method))];
    const err = allowed.length > 0 ? methodNotAllowed(request.method, path, allowed) : noHandlerFound(request.method, path);
    await sendError(reply, err);
  });

  app.setErrorHandler(async (error, request, reply) => {
    const e = error as { code?: string; statusCode?: number };
    lingerOnRefusedBody(request, reply);
    await sendError(reply, e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? contentTooLong(undefined, config.http.maxContentLength) : error);
  });

  return {
    fastify: app,
    node,
    async close() {
      lron.close();
      await app.close();
      await engine.close();
    },
  };
}
