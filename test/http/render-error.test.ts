import { describe, expect, it } from 'vitest';
import { fromEngineError, renderError } from '../../src/http/render-error';
import { OpenSearchError } from '../../src/http/errors';
import { badNumberParam, illegalArgument, methodNotAllowed, noHandlerFound } from '../../src/http/error-table';

function engineError(wire: unknown, code = 'QuarryEngineError'): Error {
  const e = new Error(typeof wire === 'string' ? wire : JSON.stringify(wire)) as Error & { code: string };
  e.code = code;
  return e;
}

function render(err: unknown, errorTrace = false): { status: number; text: string; json: Record<string, unknown> } {
  const { status, body } = renderError(err, { errorTrace });
  const text = body.toString();
  return { status, text, json: JSON.parse(text) as Record<string, unknown> };
}

describe('renderError', () => {
  it('renders index_not_found_exception exactly as OpenSearch does', () => {
    const e = engineError(
      '{"type":"index_not_found_exception","reason":"no such index [blah]","index":"blah","resource.id":"blah","resource.type":"index_or_alias","index_uuid":"_na_","status":404}',
    );
    const { status, text } = render(e);
    expect(status).toBe(404);
    expect(text).toBe(
      '{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index [blah]","index":"blah","resource.id":"blah","resource.type":"index_or_alias","index_uuid":"_na_"}],' +
        '"type":"index_not_found_exception","reason":"no such index [blah]","index":"blah","resource.id":"blah","resource.type":"index_or_alias","index_uuid":"_na_"},"status":404}',
    );
  });

  it('takes the deepest OpenSearch exception as root cause, stopping at plain Java ones', () => {
    const e = engineError({
      type: 'mapper_parsing_exception',
      reason: 'Failed to parse mapping [_doc]: x',
      caused_by: { type: 'mapper_parsing_exception', reason: 'x', caused_by: { type: 'illegal_argument_exception', reason: 'y' } },
      status: 400,
    });
    const error = render(e).json.error as Record<string, unknown>;
    expect(error.root_cause).toEqual([{ type: 'mapper_parsing_exception', reason: 'x' }]);
    expect(error.caused_by).toEqual({ type: 'mapper_parsing_exception', reason: 'x', caused_by: { type: 'illegal_argument_exception', reason: 'y' } });
  });

  it('makes a plain Java exception its own root cause (OpenSearch: bad int parameter)', () => {
    expect(render(badNumberParam('int', 'size', 'abc')).text).toBe(
      '{"error":{"root_cause":[{"type":"illegal_argument_exception","reason":"Failed to parse int parameter [size] with value [abc]"}],' +
        '"type":"illegal_argument_exception","reason":"Failed to parse int parameter [size] with value [abc]",' +
        '"caused_by":{"type":"number_format_exception","reason":"For input string: \\"abc\\""}},"status":400}',
    );
  });

  it('keeps engine extra fields in order with their numbers exact, and explicit root causes', () => {
    const e = engineError(
      '{"type":"search_phase_execution_exception","reason":"all shards failed","phase":"query","grouped":true,"failed_shards":[{"shard":0,"index":"i","node":"n","reason":{"type":"query_shard_exception","reason":"q","index":"i"}}],' +
        '"root_cause":[{"type":"query_shard_exception","reason":"q","index":"i"}],"seq":9007199254740993,"status":400}',
    );
    const { text } = render(e);
    expect(text).toContain('"root_cause":[{"type":"query_shard_exception","reason":"q","index":"i"}],"type":"search_phase_execution_exception"');
    expect(text).toContain('"phase":"query","grouped":true,"failed_shards":[{"shard":0,');
    expect(text).toContain('"seq":9007199254740993');
  });

  it('decodes engine errors by their code, and by shape from older bindings', () => {
    const wire = { type: 'resource_not_found_exception', reason: 'gone', status: 404 };
    for (const e of [engineError(wire), engineError(wire, 'GenericFailure')]) {
      const os = fromEngineError(e);
      expect(os).toBeInstanceOf(OpenSearchError);
      expect((os as OpenSearchError).status).toBe(404);
    }
    const other = new Error('not from the engine');
    expect(fromEngineError(other)).toBe(other);
    expect(render(engineError('garbage')).status).toBe(500);
  });

  it('adds stack_trace only with error_trace=true', () => {
    const e = illegalArgument('bad');
    expect(render(e).text).not.toContain('stack_trace');
    const error = render(e, true).json.error as Record<string, unknown>;
    expect(error.stack_trace).toMatch(/^IllegalArgumentException\[bad\]\n\tat /);
    expect((error.root_cause as Array<Record<string, unknown>>)[0]?.stack_trace).toBeTypeOf('string');
  });

  it('renders unknown failures as 500 exception', () => {
    const { status, json } = render(new Error('boom'));
    expect(status).toBe(500);
    expect(json).toEqual({ error: { root_cause: [{ type: 'exception', reason: 'boom' }], type: 'exception', reason: 'boom' }, status: 500 });
    expect(render('a string').status).toBe(500);
  });

  it('renders the bare 405 form with an Allow header', () => {
    const r = renderError(methodNotAllowed('PATCH', '/', ['HEAD', 'DELETE', 'GET']), { errorTrace: false });
    expect(r.status).toBe(405);
    expect(r.body.toString()).toBe('{"error":"Incorrect HTTP method for uri [/] and method [PATCH], allowed: [HEAD, DELETE, GET]","status":405}');
    expect(r.headers).toEqual({ Allow: 'HEAD,DELETE,GET' });
  });

  it('renders no-handler as a bare 400 without status', () => {
    const r = renderError(noHandlerFound('GET', '/_foo/bar'), { errorTrace: false });
    expect(r.status).toBe(400);
    expect(r.body.toString()).toBe('{"error":"no handler found for uri [/_foo/bar] and method [GET]"}');
  });

  it('pretty-prints errors when asked', () => {
    const r = renderError(illegalArgument('bad'), { errorTrace: false, pretty: true });
    expect(r.body.toString()).toBe(
      '{\n  "error" : {\n    "root_cause" : [\n      {\n        "type" : "illegal_argument_exception",\n        "reason" : "bad"\n      }\n    ],\n' +
        '    "type" : "illegal_argument_exception",\n    "reason" : "bad"\n  },\n  "status" : 400\n}\n',
    );
  });

  it('renders exception headers after caused_by', () => {
    const e = new OpenSearchError(401, 'security_exception', 'missing authentication credentials', {}, undefined, {
      header: { 'WWW-Authenticate': 'Basic realm="security"' },
    });
    expect(render(e).text).toContain('"reason":"missing authentication credentials","header":{"WWW-Authenticate":"Basic realm=\\"security\\""}}');
  });
});
