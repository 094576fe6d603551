import { describe, expect, it } from 'vitest';
import { fromEngineError, renderError } from '../../src/http/render-error';
import { OpenSearchError } from '../../src/http/errors';
import { methodNotAllowed, unrecognizedParameters } from '../../src/http/error-table';

function render(err: unknown, errorTrace = false): { status: number; json: Record<string, unknown> } {
  const { status, body } = renderError(err, { errorTrace });
  return { status, json: JSON.parse(body.toString()) as Record<string, unknown> };
}

describe('renderError', () => {
  it('renders engine errors with their cause chain and the deepest OpenSearch root cause', () => {
    const engine = new Error(
      JSON.stringify({
        type: 'mapper_parsing_exception',
        reason: 'Failed to parse mapping [_doc]: x',
        caused_by: { type: 'mapper_parsing_exception', reason: 'x', caused_by: { type: 'illegal_argument_exception', reason: 'y' } },
        status: 400,
      }),
    );
    const { status, json } = render(engine);
    expect(status).toBe(400);
    const error = json.error as Record<string, unknown>;
    expect(error.type).toBe('mapper_parsing_exception');
    expect(error.root_cause).toEqual([{ type: 'mapper_parsing_exception', reason: 'x' }]);
    expect((error.caused_by as Record<string, unknown>).type).toBe('mapper_parsing_exception');
  });

  it('keeps extra fields in order', () => {
    const e = fromEngineError(
      new Error('{"type":"index_not_found_exception","reason":"no such index [x]","index":"x","index_uuid":"_na_","status":404}'),
    );
    expect(e).toBeInstanceOf(OpenSearchError);
    const { json } = render(e);
    expect(Object.keys(json.error as object)).toEqual(['root_cause', 'type', 'reason', 'index', 'index_uuid']);
  });

  it('adds a stack trace only with error_trace', () => {
    const e = new OpenSearchError(400, 'illegal_argument_exception', 'bad');
    expect((render(e).json.error as Record<string, unknown>).stack_trace).toBeUndefined();
    expect((render(e, true).json.error as Record<string, unknown>).stack_trace).toBeTypeOf('string');
  });

  it('renders unknown failures as 500 exception', () => {
    expect(render(new Error('boom')).status).toBe(500);
  });

  it('renders the bare form OpenSearch uses for a wrong method', () => {
    expect(render(methodNotAllowed('PUT', '/a/_doc', ['POST'])).json).toEqual({
      error: 'Incorrect HTTP method for uri [/a/_doc] and method [PUT], allowed: [POST]',
      status: 405,
    });
  });
});

describe('unrecognizedParameters', () => {
  it('suggests close names', () => {
    const e = unrecognizedParameters('/i/_doc/1', ['refesh'], ['refresh', 'routing']);
    expect(e.reason).toBe('request [/i/_doc/1] contains unrecognized parameter: [refesh] -> did you mean [refresh]?');
    const many = unrecognizedParameters('/x', ['b', 'a'], []);
    expect(many.reason).toBe('request [/x] contains unrecognized parameters: [a], [b]');
  });
});
