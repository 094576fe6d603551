// Stage 2 of the request pipeline: who is asking. In the security plugin's order: a TLS client
// certificate named in `plugins.security.authcz.admin_dn` is the super admin; otherwise the
// HTTP authentication domains are tried by ascending `order`. The first domain whose credentials
// the request carries decides. A challenging domain (basic) meeting a request without its
// credentials answers 401 with its challenge at once, which is why the API-key domain must come
// before basic. A cached credential answers synchronously; a new one costs one bcrypt check off
// the event loop.
import type { FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { apiKeyRejected, authenticationFinallyFailed, unauthorized } from '../http/error-table';
import { subjectDn } from './certificates';
import { parseApiKeyHeader } from './api-keys';
import { parseBasic } from './internal-users';
import { superAdmin, type Principal } from './principal';
import type { Security } from './security';

/** A connection's client certificate is read once (the DN decides for all its requests). */
const adminBySocket = new WeakMap<object, Principal | null>();

function certificateAdmin(security: Security, request: FastifyRequest): Principal | undefined {
  const socket = request.raw.socket as TLSSocket;
  if (socket.encrypted !== true || security.adminDns.size === 0) return undefined;
  let admin = adminBySocket.get(socket);
  if (admin === undefined) {
    admin = null;
    const peer = socket.authorized ? socket.getPeerX509Certificate() : undefined;
    if (peer !== undefined) {
      const dn = subjectDn(peer);
      if (security.adminDns.has(dn)) admin = superAdmin(dn);
    }
    adminBySocket.set(socket, admin);
  }
  return admin ?? undefined;
}

export function authenticate(security: Security, request: FastifyRequest): Principal | Promise<Principal> {
  const admin = certificateAdmin(security, request);
  if (admin !== undefined) return admin;
  const header = request.headers.authorization;
  for (const domain of security.store.model.domains) {
    if (domain.type === 'apikey') {
      if (!security.apiKeys.enabled) continue;
      const key = parseApiKeyHeader(header);
      if (key === 'malformed') throw apiKeyRejected('malformed API key: expected base64 of <id>:<secret>', security.challenges);
      if (key !== undefined) return security.apiKeys.authenticate(key.id, key.secret);
    } else {
      const creds = parseBasic(header);
      if (creds !== undefined) return security.users.authenticate(creds);
    }
    if (domain.challenge) throw unauthorized();
  }
  throw authenticationFinallyFailed();
}
