// Stage 2 of the request pipeline. Security arrives with its own issue; until then every
// request runs as the anonymous principal, and the stage exists so routes need no change then.
import type { FastifyRequest } from 'fastify';

export interface Principal {
  readonly name: string;
  readonly roles: readonly string[];
}

export const ANONYMOUS: Principal = { name: '_anonymous', roles: [] };

export function authenticate(_request: FastifyRequest): Principal {
  return ANONYMOUS;
}
