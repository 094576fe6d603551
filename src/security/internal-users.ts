// Users of the internal user database (internal_users.yml and the node's own `admin`),
// authenticated by HTTP basic credentials against their bcrypt hashes.
import { verify } from '@node-rs/bcrypt';
import { unauthorized } from '../http/error-table';
import type { SecurityModel } from './security-config';
import { makePrincipal, mappedRoles, type Principal } from './principal';
import { VerifiedSecrets } from './verified-secrets';

export interface BasicCredentials {
  readonly user: string;
  readonly password: string;
}

/** `Basic <base64(user:password)>` (scheme case-insensitive); undefined when absent or malformed. */
export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || header.length < 6 || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export class InternalUsers {
  private readonly verified: VerifiedSecrets<Principal>;

  constructor(
    private readonly model: () => SecurityModel,
    /** A hash of nothing anyone knows: verified against for unknown users, so timing does not tell. */
    private readonly dummyHash: Promise<string>,
    cacheTtlMillis: number,
  ) {
    this.verified = new VerifiedSecrets(cacheTtlMillis);
  }

  /** Forgets every verified password (the users or roles changed). */
  forgetAll(): void {
    this.verified.clear();
  }

  /** The principal of a user, with the roles mapped to it. */
  principalOf(name: string): Principal | undefined {
    const user = this.model().users.get(name);
    if (user === undefined) return undefined;
    return makePrincipal(this.model(), name, user.backendRoles, mappedRoles(this.model(), name, user.backendRoles, user.securityRoles));
  }

  authenticate(creds: BasicCredentials): Principal | Promise<Principal> {
    const cached = this.verified.get(creds.user, creds.password);
    if (cached !== undefined) return cached;
    return this.verified.checkOnce(creds.user, creds.password, () => {
      const user = this.model().users.get(creds.user);
      return (user === undefined ? this.dummyHash : Promise.resolve(user.hash))
        .then((h) => verify(creds.password, h))
        .catch(() => false)
        .then((ok) => {
          const principal = ok && creds.password.length > 0 ? this.principalOf(creds.user) : undefined;
          if (principal === undefined) throw unauthorized();
          this.verified.remember(creds.user, creds.password, principal);
          return principal;
        });
    });
  }
}
