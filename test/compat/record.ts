// --record: turns what the real OpenSearch answered into the expectations.
//
// The observed answer replaces the old expectation value by value, except where the engineer put a
// matcher or a {{variable}}: those stay (a value that varies between runs must not be frozen), and
// the observed value is checked against them so a wrong matcher is reported rather than kept.
// Values that always vary (took, uuids, creation dates) become matchers the first time they are
// recorded, so a fresh recording is stable without hand edits.

import type { Expectation } from './format';
import { Matcher, compare, isPlainObject, show } from './matchers';
import { isPinned, type Observed } from './runner';

const UUID_LIKE = /^[A-Za-z0-9_-]{22}$/;

/** `[books/bZXFINBjTautVbs9VPdL6Q]`: OpenSearch names an index with its uuid in many messages. */
const INDEX_WITH_UUID = /\/[A-Za-z0-9_-]{22}\]/;

/**
 * `org.opensearch…WeightFactorFunction@6a86a5db`: Java's `Object.toString` of a score function in
 * a query's text, whose hash code mixes in an enum's identity hash, drawn anew in every JVM.
 */
const JAVA_OBJECT_HASH = /(?<=org\.opensearch\.[\w.$]+)@[0-9a-f]{1,8}/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A value recorded for the first time at `key`: a matcher when it is known to vary. */
function fresh(key: string | undefined, v: unknown): unknown {
  // flat_settings keys (`index.uuid`) vary like their nested form (`uuid`)
  const name = key?.split('.').pop();
  // took and the master's task queue depend on timing
  if ((name === 'took' || name === 'number_of_pending_tasks' || name === 'task_max_waiting_in_queue_millis') && typeof v === 'number') {
    return new Matcher('number');
  }
  if ((name === 'uuid' || name === 'index_uuid' || name === 'cluster_uuid') && typeof v === 'string' && UUID_LIKE.test(v)) return new Matcher('uuid');
  if (name === 'creation_date' && typeof v === 'string' && /^\d+$/.test(v)) return new Matcher('regex', '^\\d+$');
  if (name === 'creation_date_string' && typeof v === 'string') return new Matcher('regex', '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$');
  if (typeof v === 'string' && JAVA_OBJECT_HASH.test(v)) {
    const parts = v.split(new RegExp(JAVA_OBJECT_HASH.source, 'g')).map(escapeRegExp);
    return new Matcher('regex', `^${parts.join('@[0-9a-f]{1,8}')}$`);
  }
  if (typeof v === 'string' && INDEX_WITH_UUID.test(v)) {
    const parts = v.split(INDEX_WITH_UUID).map(escapeRegExp);
    return new Matcher('regex', `^${parts.join('/[A-Za-z0-9_-]{22}\\]')}$`);
  }
  if (Array.isArray(v)) return v.map((x) => fresh(undefined, x));
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fresh(k, x)]));
  return v;
}

function merge(old: unknown, obs: unknown, key: string | undefined, path: string, warnings: string[], vars: ReadonlyMap<string, string>): unknown {
  if (isPinned(old)) {
    const problems: string[] = [];
    compare(old, obs, path, problems, vars);
    warnings.push(...problems.map((p) => `kept ${p}`));
    return old;
  }
  if (isPlainObject(old) && isPlainObject(obs)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obs)) {
      out[k] = Object.prototype.hasOwnProperty.call(old, k) ? merge(old[k], v, k, `${path}.${k}`, warnings, vars) : fresh(k, v);
    }
    // `!absent` says "OpenSearch must not send this"; keep the assertion if it still holds.
    for (const [k, v] of Object.entries(old)) {
      if (v instanceof Matcher && v.kind === 'absent') {
        if (k in obs) warnings.push(`${path}.${k}: marked !absent but OpenSearch sent ${show(obs[k])}`);
        else out[k] = v;
      }
    }
    return out;
  }
  if (Array.isArray(old) && Array.isArray(obs)) {
    return obs.map((v, i) => (i < old.length ? merge(old[i], v, undefined, `${path}[${i}]`, warnings, vars) : fresh(undefined, v)));
  }
  return fresh(key, obs);
}

/** The new expectation for a step, from the old one (if any) and what OpenSearch answered. */
export function recordExpectation(
  old: Expectation | undefined,
  obs: Observed,
  pretty: boolean,
  vars: ReadonlyMap<string, string>,
  warnings: string[],
): Expectation {
  const exp: Expectation = { status: obs.status };
  if (old?.headers) {
    const headers: Record<string, unknown> = {};
    for (const [name, was] of Object.entries(old.headers)) {
      const present = Object.prototype.hasOwnProperty.call(obs.headers, name);
      if (isPinned(was)) {
        headers[name] = merge(was, obs.headers[name], name, `headers.${name}`, warnings, vars);
        if (was instanceof Matcher && !present && was.kind !== 'absent') warnings.push(`headers.${name}: missing`);
      } else {
        // `name: ~` in a scenario asks for the header to be recorded.
        headers[name] = present ? obs.headers[name] : new Matcher('absent');
      }
    }
    exp.headers = headers;
  }
  // Raw text where the scenario compares text, the answer is not JSON, or formatting is the point.
  const asText = old?.text !== undefined || obs.json === undefined || pretty;
  if (obs.text === '') return exp;
  if (asText) exp.text = old?.text !== undefined ? merge(old.text, obs.text, undefined, 'text', warnings, vars) : obs.text;
  else exp.body = old?.body !== undefined ? merge(old.body, obs.json, undefined, 'body', warnings, vars) : fresh(undefined, obs.json);
  return exp;
}
