// What an action file declares: its OpenSearch action name, its routes, the query parameters
// it accepts, and how it runs (by default: one engine call with the raw body).
import type { Engine, EngineParams, EngineResponse } from '../engine';
import type { NodeContext } from '../node-context';
import type { Task } from '../tasks/task-manager';
import type { Principal } from '../security/principal';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH';

export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
}

export interface ActionRequest {
  readonly params: EngineParams;
  readonly body: Buffer | undefined;
  readonly signal: AbortSignal;
  /** The request's own task (the tasks API lists and cancels by it). */
  readonly task: Task;
  /** Whether the answer is to be pretty-printed (for `run`s that cache both forms). */
  readonly pretty: boolean;
  /** Who the request runs as; undefined when security is disabled. */
  readonly principal: Principal | undefined;
}

export interface ActionSpec {
  /** OpenSearch's action name: authorization, the tasks API and audit key on it. */
  readonly action: string;
  readonly routes: readonly Route[];
  /** Query parameters accepted beyond the universal ones (pretty, human, error_trace, filter_path). */
  readonly params: readonly string[];
  /**
   * Parameters accepted only when another is given (key: that other one), beyond `params`.
   * OpenSearch's REST handler reads `df`, `lenient`... only under `q`, so without it they are
   * unrecognized, and not offered as "did you mean" either.
   */
  readonly paramsWith?: Readonly<Record<string, readonly string[]>>;
  /** Answered without logging in (the security plugin's health check, which load balancers poll). */
  readonly unauthenticated?: boolean;
  /** Whether the tasks API may cancel it (OpenSearch's cancellable tasks: searches). */
  readonly cancellable?: boolean;
  /** The engine operation; defaults to `action`. */
  readonly engineAction?: string;
  /** Parameters the route itself implies (e.g. `_create` means op_type=create). */
  readonly fixedParams?: Readonly<Record<string, string>>;
  /** Pretty-printed unless `?pretty=false` (OpenSearch does this for `GET /`). Such an action's
   * `run` formats its answer itself, so the pipeline only applies `filter_path` when asked. */
  readonly prettyByDefault?: boolean;
  /**
   * A `_cat` table whose `help` answers before its path parameter is read: OpenSearch then
   * refuses the request, naming that parameter (its name, which may not be the route's).
   */
  readonly helpLeaves?: string;
  /** `text` for _cat tables (plain text unless format=json). */
  readonly output?: 'json' | 'text';
  /** A TS-side implementation, for the few actions the engine does not answer. An answer known
   * at once is returned as it is (no promise, so it is sent before the handler returns). */
  readonly run?: (request: ActionRequest, node: NodeContext) => EngineResponse | Promise<EngineResponse>;
}

export function route(method: HttpMethod, path: string): Route {
  return { method, path };
}

export type { Engine };
