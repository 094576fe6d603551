// Bodies stay raw bytes end to end: the engine parses them. Fastify does not read bodies on
// GET, but OpenSearch clients send them there (_search, _mget, _count), so they are read here.
import type { FastifyRequest } from 'fastify';
import { contentTooLong } from './error-table';

/** The body fastify already read (POST, PUT, DELETE), or none. */
export function bodyOf(request: FastifyRequest): Buffer | undefined {
  return Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
}

/** Whether a GET or HEAD request carries a body still to be read from the socket. */
export function hasUnreadBody(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export async function rawBody(request: FastifyRequest, limit: number): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(request.body)) {
    return request.body.length > 0 ? request.body : undefined;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return undefined;
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared === 0 && request.headers['transfer-encoding'] === undefined) {
    return undefined;
  }
  if (declared > limit) {
    throw contentTooLong(declared, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) {
      throw contentTooLong(size, limit);
    }
    chunks.push(b);
  }
  return size > 0 ? Buffer.concat(chunks, size) : undefined;
}
