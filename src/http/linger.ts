// A refused body (past http.max_content_length) is answered before the client has finished
// sending it. fastify then closes the connection (a POST or PUT body it reads), and closing a
// TCP socket with unread data in its receive buffer makes the kernel send a reset instead of a
// FIN; a reset can reach the client before it has read the answer, which it then never sees
// (EPIPE or ECONNRESET instead of the 413: a raw client writing a 4 MB body over loopback lost
// it in 3 of 6 tries).
//
// So the connection is kept: node reads and drops the rest of the body after the answer, as it
// does for any body a handler left unread, and the connection then serves the client's next
// request. A body still arriving LINGER_MS after the answer, or LINGER_BYTES past it, is cut
// off: a client cannot hold the node reading a body it has refused for ever.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The longest the rest of a refused body is read after the answer. */
const LINGER_MS = 2000;

/** The most bytes of it read after the answer. */
const LINGER_BYTES = 64 * 1024 * 1024;

/** How often the bytes read are checked against LINGER_BYTES. */
const CHECK_MS = 50;

/**
 * For an error answer while the request's body is still arriving (fastify's, marked
 * `connection: close`, or the pipeline's to a GET body): keeps the connection, and lets node
 * drain the body after the answer, within the bounds.
 */
export function lingerOnRefusedBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete) return;
  if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
  reply.raw.once('finish', () => {
    const start = raw.socket.bytesRead;
    const deadline = Date.now() + LINGER_MS;
    const check = setInterval(() => {
      if (raw.complete || raw.socket.destroyed) clearInterval(check);
      else if (Date.now() > deadline || raw.socket.bytesRead - start > LINGER_BYTES) raw.socket.destroy();
    }, CHECK_MS);
    check.unref();
  });
}
