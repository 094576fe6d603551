// Secrets that bcrypt has already verified, so a client sending the same credentials on every
// request pays the (deliberately slow) hash once per `plugins.security.cache.ttl_minutes`, as the
// security plugin's user cache does. Only a SHA-256 digest of each secret is kept, and it is
// compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

interface Entry<T> {
  readonly digest: Buffer;
  readonly value: T;
  readonly expires: number;
}

export function digestOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export class VerifiedSecrets<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Checks under way, by id and secret digest: a burst of requests with new credentials (a
   * client opening many connections at once) shares one bcrypt instead of running one each. */
  private readonly pending = new Map<string, Promise<T>>();

  constructor(private readonly ttlMillis: number) {}

  /** The value remembered for `id` if `secret` is the one verified for it, and still fresh. */
  get(id: string, secret: string): T | undefined {
    const e = this.entries.get(id);
    if (e === undefined) return undefined;
    if (e.expires <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return timingSafeEqual(e.digest, digestOf(secret)) ? e.value : undefined;
  }

  remember(id: string, secret: string, value: T): void {
    if (this.ttlMillis <= 0) return;
    this.entries.set(id, { digest: digestOf(secret), value, expires: Date.now() + this.ttlMillis });
  }

  /** Runs `check` for these credentials, or joins the one already running for them. */
  checkOnce(id: string, secret: string, check: () => Promise<T>): Promise<T> {
    const key = `${id}\u0000${digestOf(secret).toString('base64')}`;
    let p = this.pending.get(key);
    if (p === undefined) {
      p = check().finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}
