// A small SMTP client (RFC 5321) for smtp_account channels: one connection per message, as
// JavaMail's Transport.send makes one. `method` is the account's: `none` (plain), `ssl` (TLS from
// the first byte) or `start_tls` (plain, then STARTTLS before anything is sent). Server
// certificates are verified against the system's CAs and the host name.
//
// Failures carry the kind the notifications plugin tells apart: the server could not be reached
// (`connect`), it refused the sender or a recipient (`rejected`), or anything else (`failed`).
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import type { SmtpMethod } from './notification-config';

export type SmtpFailureKind = 'connect' | 'rejected' | 'failed';

export class SmtpError extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

export interface SmtpMail {
  readonly host: string;
  readonly port: number;
  readonly method: SmtpMethod;
  readonly from: string;
  readonly to: string;
  /** The whole message (headers and body), CRLF line ends. */
  readonly message: string;
}

export interface SmtpTimeouts {
  readonly connectMs: number;
  /** Longest wait for any reply. */
  readonly replyMs: number;
}

interface Reply {
  readonly code: number;
  readonly lines: readonly string[];
}

function replyText(r: Reply): string {
  return r.lines.map((l) => `${r.code} ${l}`).join('\n');
}

/** Reads CRLF-terminated replies off a socket; a reply of several lines ends at `ddd `. */
class Session {
  private socket: net.Socket;
  private buffer = '';
  private partial: string[] = [];
  private readonly replies: Reply[] = [];
  private waiter: { resolve: (r: Reply) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;
  private readonly onData = (chunk: Buffer): void => this.push(chunk.toString('latin1'));
  private readonly onError = (err: Error): void => this.fail(new SmtpError('failed', err.message));
  private readonly onClose = (): void => this.fail(new SmtpError('failed', 'Connection closed by the server'));
  private readonly onTimeout = (): void => {
    this.fail(new SmtpError('failed', 'Read timed out'));
    this.socket.destroy();
  };

  constructor(
    socket: net.Socket,
    private readonly timeouts: SmtpTimeouts,
  ) {
    this.socket = socket;
    this.attach();
  }

  private attach(): void {
    this.socket.on('data', this.onData);
    this.socket.on('error', this.onError);
    this.socket.on('close', this.onClose);
    this.socket.setTimeout(this.timeouts.replyMs, this.onTimeout);
  }

  private detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('error', this.onError);
    this.socket.off('close', this.onClose);
    this.socket.setTimeout(0);
  }

  private push(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (m === null) {
        this.fail(new SmtpError('failed', `Unexpected reply from the server: ${line}`));
        return;
      }
      this.partial.push(m[3] ?? '');
      if (m[2] !== '-') {
        this.deliver({ code: Number(m[1]), lines: this.partial });
        this.partial = [];
      }
    }
  }

  private deliver(r: Reply): void {
    const w = this.waiter;
    if (w !== undefined) {
      this.waiter = undefined;
      w.resolve(r);
    } else this.replies.push(r);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const w = this.waiter;
    this.waiter = undefined;
    w?.reject(this.failure);
  }

  reply(): Promise<Reply> {
    const queued = this.replies.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<Reply>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  async command(line: string): Promise<Reply> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  write(data: string): void {
    this.socket.write(data, 'utf8');
  }

  /** STARTTLS: the same connection, from here on encrypted. */
  async upgrade(host: string): Promise<void> {
    this.detach();
    const plain = this.socket;
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const s = tls.connect({ socket: plain, servername: net.isIP(host) === 0 ? host : undefined, host });
      s.once('secureConnect', () => resolve(s));
      s.once('error', (err) => reject(new SmtpError('failed', err.message)));
    });
    this.socket = secure;
    this.buffer = '';
    this.attach();
  }

  close(): void {
    this.detach();
    this.socket.destroy();
  }
}

function connect(mail: SmtpMail, timeouts: SmtpTimeouts): Promise<net.Socket> {
  const where = `Couldn't connect to host, port: ${mail.host}, ${mail.port}; timeout ${timeouts.connectMs}`;
  return new Promise<net.Socket>((resolve, reject) => {
    const secure = mail.method === 'ssl';
    const socket = secure
      ? tls.connect({ host: mail.host, port: mail.port, servername: net.isIP(mail.host) === 0 ? mail.host : undefined })
      : net.connect({ host: mail.host, port: mail.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpError('connect', `${where}; nested exception is: Connect timed out`));
    }, timeouts.connectMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      // A TLS handshake that fails reached the server: that is not a connection failure.
      const reached = secure && !(err as NodeJS.ErrnoException).syscall;
      reject(new SmtpError(reached ? 'failed' : 'connect', reached ? err.message : `${where}; nested exception is: ${err.message}`));
    });
  });
}

function expect(r: Reply, codes: readonly number[], kind: SmtpFailureKind = 'failed'): void {
  if (!codes.includes(r.code)) throw new SmtpError(kind, replyText(r));
}

/** Lines that start with a dot get another (RFC 5321 §4.5.2); the message ends with `.`. */
function dotStuffed(message: string): string {
  const body = message.endsWith('\r\n') ? message : `${message}\r\n`;
  return `${body.replace(/^\./gm, '..')}.\r\n`;
}

export async function sendMail(mail: SmtpMail, timeouts: SmtpTimeouts): Promise<void> {
  const session = new Session(await connect(mail, timeouts), timeouts);
  try {
    const me = os.hostname() || 'localhost';
    expect(await session.reply(), [220]);
    let ehlo = await session.command(`EHLO ${me}`);
    if (ehlo.code !== 250) expect(await session.command(`HELO ${me}`), [250]);
    if (mail.method === 'start_tls') {
      // JavaMail would go on in clear text when the server offers no STARTTLS; an account set
      // to start_tls must not send its mail unencrypted, so Quarry stops here.
      if (ehlo.code !== 250 || !ehlo.lines.some((l) => /^STARTTLS\b/i.test(l))) throw new SmtpError('failed', 'STARTTLS is required but the server does not offer it');
      expect(await session.command('STARTTLS'), [220]);
      await session.upgrade(mail.host);
      ehlo = await session.command(`EHLO ${me}`);
      expect(ehlo, [250]);
    }
    expect(await session.command(`MAIL FROM:<${mail.from}>`), [250], 'rejected');
    const rcpt = await session.command(`RCPT TO:<${mail.to}>`);
    if (rcpt.code !== 250 && rcpt.code !== 251) throw new SmtpError('rejected', `Invalid Addresses; nested exception is: ${replyText(rcpt)}`);
    expect(await session.command('DATA'), [354]);
    session.write(dotStuffed(mail.message));
    expect(await session.reply(), [250]);
    // The message is accepted; a QUIT the server does not answer changes nothing.
    await session.command('QUIT').catch(() => undefined);
  } finally {
    session.close();
  }
}
