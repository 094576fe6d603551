// Bodies stay raw bytes end to end: the engine parses them. Fastify does not read bodies on
// GET, but OpenSearch clients send them there (_search, _mget, _count), so they are read here.
//
// A body is kept as the chunks it arrived in: joining a multi-megabyte `_bulk` on the event
// loop costs a copy and as much again in external memory, which drives V8 into mark-compacts
// while ingest runs. The engine joins the chunks on its own threads.
import type { FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import { contentTooLong } from './error-table';

/** One Buffer, or the chunks of a larger body in order. */
export type RawBody = Buffer | readonly Buffer[];

/** The body fastify already read (POST, PUT, DELETE), or none. */
export function bodyOf(request: FastifyRequest): RawBody | undefined {
  const b = request.body;
  if (Buffer.isBuffer(b)) return b.length > 0 ? b : undefined;
  if (Array.isArray(b)) return b.length > 0 ? (b as Buffer[]) : undefined;
  return undefined;
}

/** One Buffer, for the few TS-side actions that read a body themselves. */
export function joinBody(body: RawBody | undefined): Buffer | undefined {
  if (body === undefined || Buffer.isBuffer(body)) return body as Buffer | undefined;
  return body.length === 1 ? body[0] : Buffer.concat(body as Buffer[]);
}

/** Whether a GET or HEAD request carries a body still to be read from the socket. */
export function hasUnreadBody(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function collect(
  stream: NodeJS.ReadableStream,
  limit: number,
  tooLarge: (size: number) => Error,
  done: (err: Error | null, body?: RawBody) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (err: Error | null, body?: RawBody): void => {
    stream.removeListener('data', onData);
    stream.removeListener('end', onEnd);
    stream.removeListener('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer | string): void => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > limit) {
      finish(tooLarge(size));
      return;
    }
    chunks.push(b);
  };
  const onEnd = (): void => finish(null, chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0] : chunks);
  const onError = (err: Error): void => finish(err);
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
  stream.resume();
}

/**
 * fastify's content-type parser for every media type: the chunks as they came, unjoined, with
 * fastify's own errors for a body past `bodyLimit` (413) or shorter than its content-length.
 */
export function bodyParser(limit: number) {
  return (request: FastifyRequest, payload: NodeJS.ReadableStream, done: (err: Error | null, body?: RawBody) => void): void => {
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    collect(payload, limit, () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), (err, body) => {
      if (err !== null) {
        const e = err as Error & { statusCode?: number };
        if (!(typeof e.statusCode === 'number' && e.statusCode >= 400)) e.statusCode = 400;
        done(e);
        return;
      }
      const received = body === undefined ? 0 : Buffer.isBuffer(body) ? body.length : body.reduce((n, b) => n + b.length, 0);
      if (!Number.isNaN(declared) && received !== declared) {
        done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      done(null, body);
    });
  };
}

/** A GET or HEAD body, read from the socket. */
export function rawBody(request: FastifyRequest, limit: number): Promise<RawBody | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Promise.resolve(undefined);
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared === 0 && request.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(undefined);
  }
  if (declared > limit) {
    return Promise.reject(contentTooLong(declared, limit));
  }
  return new Promise((resolve, reject) => {
    collect(request.raw, limit, (size) => contentTooLong(size, limit), (err, body) => (err !== null ? reject(err) : resolve(body)));
  });
}
