// A long-running-operation notification setting (index-management's LRONConfig): which
// operation (one task, or every operation of an action), on which outcomes, to which channels.
// Read from `{"lron_config": {…}}` with the plugin's checks and messages; written back in its
// field order (lron_condition, task_id, action_name, channels).
import { illegalArgument } from '../http/error-table';
import { OpenSearchError } from '../http/errors';
import { booleanOf, expectArray, expectObject, intOf, textOf, unexpectedToken, type XNode } from '../http/xcontent';

/** The operations that notify, in the plugin's order (its error message lists them so). */
export const SUPPORTED_ACTIONS = ['indices:data/write/reindex', 'indices:admin/resize', 'indices:admin/forcemerge', 'indices:admin/open'] as const;

export const DOC_ID_PREFIX = 'LRON:';

export interface LronCondition {
  readonly success: boolean;
  readonly failure: boolean;
}

export interface LronConfig {
  readonly lron_condition: LronCondition;
  /** `<node>:<number>` as TaskId prints it (`unset` for an empty id). */
  readonly task_id?: string;
  readonly action_name?: string;
  readonly channels?: ReadonlyArray<{ readonly id: string }>;
}

/** A parsed task id: `unset` when empty, as OpenSearch's TaskId reads "" and "unset". */
export interface ParsedTaskId {
  readonly node: string;
  readonly text: string;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** `new TaskId(String)`: `<node>:<long>` split at the first colon; printed back normalized. */
export function parseTaskId(text: string): ParsedTaskId {
  if (text === '' || text === 'unset') return { node: '', text: 'unset' };
  const colon = text.indexOf(':');
  const number = colon === -1 ? '' : text.slice(colon + 1);
  if (colon === -1) throw illegalArgument(`malformed task id ${text}`);
  const n = /^[+-]?\d+$/.test(number) ? BigInt(number) : undefined;
  if (n === undefined || n < LONG_MIN || n > LONG_MAX) {
    throw illegalArgument(`malformed task id ${text}`, { type: 'number_format_exception', reason: `For input string: "${number}"` });
  }
  return { node: text.slice(0, colon), text: `${text.slice(0, colon)}:${n}` };
}

export function isEnabled(c: LronCondition): boolean {
  return c.success || c.failure;
}

/** `getDocID`: `LRON:<task id>` for a one-time setting, else `LRON:<action name>`. */
export function docIdOf(config: LronConfig): string {
  return DOC_ID_PREFIX + (config.task_id ?? config.action_name ?? '');
}

/** 200 for a task's setting, 100 for an action's: the list sorts on it. */
export function priorityOf(config: LronConfig): number {
  return config.task_id !== undefined ? 200 : 100;
}

function parseCondition(node: XNode): LronCondition {
  let success = true;
  let failure = true;
  for (const [key, value] of expectObject(node).entries) {
    if (key === 'success') success = booleanOf(value);
    else if (key === 'failure') failure = booleanOf(value);
    else throw illegalArgument(`Invalid field: [${key}] found in LRONCondition.`);
  }
  return { success, failure };
}

function parseChannel(node: XNode): { id: string } {
  let id: string | undefined;
  for (const [key, value] of expectObject(node).entries) {
    if (key === 'id') id = textOf(value);
    // Kotlin's error(): an IllegalStateException, which OpenSearch answers with a 500.
    else throw new OpenSearchError(500, 'illegal_state_exception', `Unexpected field: ${key}, while parsing Channel destination`);
  }
  if (id === undefined) throw illegalArgument('Channel ID is null');
  if (id === '') throw illegalArgument('Channel ID cannot be empty');
  return { id };
}

/** `LRONConfig.parse` and its constructor's checks. `user` and `priority` are read and dropped: the node sets them. */
export function parseLronConfig(node: XNode): LronConfig {
  let condition: LronCondition = { success: true, failure: true };
  let taskId: string | undefined;
  let actionName: string | undefined;
  let channels: Array<{ id: string }> | undefined;
  for (const [key, value] of expectObject(node).entries) {
    switch (key) {
      case 'lron_condition':
        condition = parseCondition(value);
        break;
      case 'task_id':
        taskId = value.kind === 'null' ? undefined : parseTaskId(textOf(value)).text;
        break;
      case 'action_name':
        actionName = value.kind === 'null' ? undefined : textOf(value);
        break;
      case 'channels':
        channels = value.kind === 'null' ? undefined : expectArray(value).items.map(parseChannel);
        break;
      case 'user':
        if (value.kind !== 'null') expectObject(value);
        break;
      case 'priority':
        if (value.kind !== 'null') intOf(value);
        break;
      default:
        throw illegalArgument(`Invalid field: [${key}] found in LRONConfig.`);
    }
  }
  if (taskId === undefined && actionName === undefined) throw illegalArgument('LRONConfig must contain taskID or actionName');
  if (actionName !== undefined && !(SUPPORTED_ACTIONS as readonly string[]).includes(actionName)) {
    throw illegalArgument(`Invalid action name. All supported actions: [${SUPPORTED_ACTIONS.join(', ')}]`);
  }
  if (isEnabled(condition) && (channels === undefined || channels.length === 0)) throw illegalArgument('Enabled LRONConfig must contain at least one channel');
  return {
    lron_condition: condition,
    ...(taskId !== undefined ? { task_id: taskId } : {}),
    ...(actionName !== undefined ? { action_name: actionName } : {}),
    ...(channels !== undefined ? { channels } : {}),
  };
}

/**
 * A request body: one field (whatever its name, as `parseWithType` reads it) holding the
 * setting, and nothing after it.
 */
export function parseLronBody(root: XNode): LronConfig {
  const o = expectObject(root);
  const first = o.entries[0];
  if (first === undefined) throw unexpectedToken('FIELD_NAME', 'END_OBJECT', o.end);
  const config = parseLronConfig(expectObject(first[1]));
  const next = o.keyStarts[1];
  if (next !== undefined) throw unexpectedToken('END_OBJECT', 'FIELD_NAME', next);
  return config;
}

/** The setting as the REST layer prints it (no user, no priority). */
export function lronConfigJson(c: LronConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { lron_condition: { success: c.lron_condition.success, failure: c.lron_condition.failure } };
  if (c.task_id !== undefined) out.task_id = c.task_id;
  if (c.action_name !== undefined) out.action_name = c.action_name;
  if (c.channels !== undefined) out.channels = c.channels.map((ch) => ({ id: ch.id }));
  return out;
}
