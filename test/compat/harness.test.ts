// The harness's own rules, so a bug in it cannot silently pass (or fail) every scenario.

import { describe, expect, it } from 'vitest';
import { applyDifferences, type Difference } from './adjust';
import { globToRegExp, matcherTags, parseYaml, stepLabels, yamlToString } from './format';
import { Matcher, compare } from './matchers';
import { recordExpectation } from './record';
import { check, type Observed } from './runner';

const noVars = new Map<string, string>();

function diff(expected: unknown, actual: unknown): string[] {
  const out: string[] = [];
  compare(expected, actual, 'body', out, noVars);
  return out;
}

function observed(json: unknown, status = 200, headers: Record<string, string> = {}): Observed {
  return { status, headers: { 'content-type': 'application/json; charset=UTF-8', ...headers }, text: JSON.stringify(json), json };
}

describe('strict comparison', () => {
  it('fails on a missing field, an extra field and a different value', () => {
    expect(diff({ a: 1, b: 2 }, { a: 1, b: 2 })).toEqual([]);
    expect(diff({ a: 1, b: 2 }, { a: 1 })).toEqual(['body.b: missing (expected 2)']);
    expect(diff({ a: 1 }, { a: 1, c: 3 })).toEqual(['body.c: unexpected field 3']);
    expect(diff({ a: [1, 2] }, { a: [1, 2, 3] })).toEqual(['body.a[2]: unexpected 3']);
    expect(diff({ a: '1' }, { a: 1 })).toEqual(['body.a: expected "1", got 1']);
  });

  it('applies matchers', () => {
    expect(diff({ t: new Matcher('number') }, { t: 12 })).toEqual([]);
    expect(diff({ t: new Matcher('number') }, { t: '12' })).toHaveLength(1);
    expect(diff({ id: new Matcher('uuid') }, { id: 'QR8ZAqIBpHeY5XiimISz' })).toEqual([]);
    expect(diff({ s: new Matcher('regex', '^a+$') }, { s: 'aab' })).toHaveLength(1);
    expect(diff({ n: new Matcher('gt', '0') }, { n: 0 })).toHaveLength(1);
    expect(diff({ l: new Matcher('length', '2') }, { l: [1, 2] })).toEqual([]);
    expect(diff({ x: new Matcher('ignore') }, {})).toEqual(['body.x: missing (expected !ignore)']);
    expect(diff({ x: new Matcher('absent') }, {})).toEqual([]);
    expect(diff({ x: new Matcher('absent') }, { x: 1 })).toHaveLength(1);
  });

  it('checks status, selected headers and the absence of a body', () => {
    const obs = observed({ ok: true }, 201, { location: '/i/_doc/1' });
    expect(check({ status: 201, headers: { location: '/i/_doc/1' }, body: { ok: true } }, obs, noVars)).toEqual([]);
    expect(check({ status: 200, body: { ok: true } }, obs, noVars)).toEqual(['status: expected 200, got 201']);
    expect(check({ status: 201 }, obs, noVars)).toEqual(['body: expected none, got {"ok":true}']);
    expect(check({ status: 201, headers: { warning: new Matcher('absent') }, body: { ok: true } }, obs, noVars)).toEqual([]);
  });

  it('interpolates saved values', () => {
    const out: string[] = [];
    compare({ _id: '{{id}}' }, { _id: 'abc' }, 'body', out, new Map([['id', 'abc']]));
    expect(out).toEqual([]);
  });
});

describe('scenario files', () => {
  it('round-trips matchers through YAML', () => {
    const doc = parseYaml("a: !number\nb: !regex '^\\d+ x$'\nc: [!gt 0, !uuid]\n", 'inline');
    const value = doc.toJS() as Record<string, unknown>;
    expect(value.a).toEqual(new Matcher('number'));
    expect(value.b).toEqual(new Matcher('regex', '^\\d+ x$'));
    const again = parseYaml(yamlToString(doc), 'again').toJS();
    expect(again).toEqual(value);
    expect(matcherTags.map((t) => t.tag)).toContain('!absent');
  });

  it('labels repeated requests and matches step globs', () => {
    const labels = stepLabels({ name: 's', steps: [{ request: 'GET /' }, { request: 'GET /' }, { request: 'PUT /x', name: 'make x' }] });
    expect(labels).toEqual(['GET /', 'GET / #2', 'make x']);
    expect(globToRegExp('update › scripted updates › a script *').test('update › scripted updates › a script with params')).toBe(true);
    expect(globToRegExp('GET /a?b').test('GET /aXb')).toBe(false);
  });
});

describe('differences', () => {
  const diffOf = (patch: [string[], unknown][]): Difference => ({ reason: 'r', requests: [], steps: [], patch, source: 't' });

  it('replaces only values the recording has', () => {
    const exp = { status: 200, body: { version: { number: '2.19.1' }, tagline: 't' } };
    const out = applyDifferences(exp, [diffOf([[['body', 'version', 'number'], '0.13.0'], [['body', 'name'], new Matcher('string')]])]);
    expect(out.body).toEqual({ version: { number: '0.13.0' }, tagline: 't' });
    expect(exp.body.version.number).toBe('2.19.1'); // the recorded expectation is not modified
  });
});

describe('recording', () => {
  it('keeps hand-written matchers and turns known volatile values into matchers', () => {
    const warnings: string[] = [];
    const old = { status: 201, body: { _id: new Matcher('uuid'), result: 'created' } };
    const obs = observed({ _id: 'QR8ZAqIBpHeY5XiimISz', result: 'updated', took: 3, index_uuid: 'bZXFINBjTautVbs9VPdL6Q' }, 200);
    const exp = recordExpectation(old, obs, false, noVars, warnings);
    expect(exp).toEqual({
      status: 200,
      body: { _id: new Matcher('uuid'), result: 'updated', took: new Matcher('number'), index_uuid: new Matcher('uuid') },
    });
    expect(warnings).toEqual([]);
  });

  it('records pretty and non-JSON answers as text, and asked-for headers', () => {
    const obs: Observed = { status: 200, headers: { 'content-type': 'text/plain; charset=UTF-8' }, text: 'c1\n' };
    const exp = recordExpectation({ status: 200, headers: { 'content-type': null, warning: null } }, obs, false, noVars, []);
    expect(exp).toEqual({ status: 200, headers: { 'content-type': 'text/plain; charset=UTF-8', warning: new Matcher('absent') }, text: 'c1\n' });
  });

  it('warns when a kept matcher no longer holds', () => {
    const warnings: string[] = [];
    recordExpectation({ status: 200, body: { n: new Matcher('gt', '5') } }, observed({ n: 1 }), false, noVars, warnings);
    expect(warnings).toHaveLength(1);
  });
});
