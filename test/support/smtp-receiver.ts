// A loopback SMTP server for tests: speaks enough of RFC 5321 (EHLO/HELO, MAIL, RCPT, DATA,
// RSET, NOOP, QUIT, STARTTLS) to take messages, and records each one with its envelope.
// Recipients in `reject` get a 550. With `tls`, it is either TLS from the first byte
// (`implicit`) or offers STARTTLS (`starttls`); `offerStartTls` alone advertises STARTTLS and
// then refuses it.
import net from 'node:net';
import tls from 'node:tls';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  /** The message as sent, dot-stuffing undone, CRLF line ends. */
  readonly data: string;
  /** The commands of the session, in order (those before STARTTLS included). */
  readonly commands: string[];
  /** Whether the message came over TLS. */
  readonly secure: boolean;
}

export interface SmtpReceiverOptions {
  readonly reject?: readonly string[];
  readonly offerStartTls?: boolean;
  readonly tls?: { readonly key: string; readonly cert: string; readonly mode: 'implicit' | 'starttls' };
}

export interface SmtpReceiver {
  readonly port: number;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(opts: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const serve = (plain: net.Socket): void => {
    sockets.add(plain);
    plain.on('close', () => sockets.delete(plain));
    plain.on('error', () => undefined);
    let socket: net.Socket = plain;
    let secure = opts.tls?.mode === 'implicit';
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const commands: string[] = [];
    const say = (line: string): void => {
      socket.write(`${line}\r\n`);
    };
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push({ from, to, data: data.map((l) => `${l}\r\n`).join(''), commands: [...commands], secure });
            data = [];
            say('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        commands.push(line);
        const verb = line.split(/[ :]/)[0]?.toUpperCase() ?? '';
        if (verb === 'EHLO') {
          say('250-receiver.test greets you');
          if (!secure && (opts.offerStartTls === true || opts.tls?.mode === 'starttls')) say('250-STARTTLS');
          say('250 8BITMIME');
        } else if (verb === 'HELO') say('250 receiver.test');
        else if (verb === 'MAIL') {
          from = /<(.*)>/.exec(line)?.[1] ?? '';
          to = [];
          say('250 2.1.0 sender ok');
        } else if (verb === 'RCPT') {
          const rcpt = /<(.*)>/.exec(line)?.[1] ?? '';
          if (opts.reject?.includes(rcpt)) say(`550 5.1.1 <${rcpt}>: user unknown`);
          else {
            to.push(rcpt);
            say('250 2.1.5 recipient ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          say('354 end data with <CR><LF>.<CR><LF>');
        } else if (verb === 'STARTTLS') {
          if (opts.tls?.mode !== 'starttls' || secure) {
            say('454 4.7.0 TLS not available');
            continue;
          }
          say('220 2.0.0 ready to start TLS');
          socket.off('data', onData);
          socket = new tls.TLSSocket(plain, { isServer: true, key: opts.tls.key, cert: opts.tls.cert });
          socket.on('error', () => undefined);
          socket.on('data', onData);
          secure = true;
          buffer = '';
          return;
        } else if (verb === 'RSET' || verb === 'NOOP') say('250 ok');
        else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('502 5.5.2 command not recognized');
      }
    };
    socket.on('data', onData);
    say('220 receiver.test ESMTP ready');
  };
  const server =
    opts.tls?.mode === 'implicit' ? tls.createServer({ key: opts.tls.key, cert: opts.tls.cert }, serve) : net.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
