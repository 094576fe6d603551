// A request body read as one JSON object, for TS-side actions whose errors carry no positions
// (those that need Jackson's positions read with xcontent.ts). No body: `{}`, or refused when
// the action needs one.
import { OpenSearchError } from './errors';
import { bodyRequired } from './error-table';

export function readJsonObject(body: Buffer | undefined, required = false): Record<string, unknown> {
  if (body === undefined || body.length === 0) {
    if (required) throw bodyRequired();
    return {};
  }
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new OpenSearchError(400, 'parse_exception', `request body is not valid JSON: ${(err as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new OpenSearchError(400, 'parse_exception', 'request body must be a JSON object');
  return v as Record<string, unknown>;
}
