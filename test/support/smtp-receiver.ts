// A loopback SMTP server for tests: speaks enough of RFC 5321 (EHLO/HELO, MAIL, RCPT, DATA,
// RSET, NOOP, QUIT) to take messages, and records each one with its envelope. Recipients in
// `reject` get a 550; `offerStartTls` only advertises STARTTLS (and refuses it when asked).
import net from 'node:net';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  /** The message as sent, dot-stuffing undone, CRLF line ends. */
  readonly data: string;
  /** The commands of the session, in order. */
  readonly commands: string[];
}

export interface SmtpReceiverOptions {
  readonly reject?: readonly string[];
  readonly offerStartTls?: boolean;
}

export interface SmtpReceiver {
  readonly port: number;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(opts: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const commands: string[] = [];
    const say = (line: string): void => {
      socket.write(`${line}\r\n`);
    };
    say('220 receiver.test ESMTP ready');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push({ from, to, data: data.map((l) => `${l}\r\n`).join(''), commands: [...commands] });
            data = [];
            say('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        commands.push(line);
        const verb = line.split(/[ :]/)[0]?.toUpperCase() ?? '';
        if (verb === 'EHLO') {
          say('250-receiver.test greets you');
          if (opts.offerStartTls === true) say('250-STARTTLS');
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
        } else if (verb === 'STARTTLS') say('454 4.7.0 TLS not available');
        else if (verb === 'RSET' || verb === 'NOOP') say('250 ok');
        else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('502 5.5.2 command not recognized');
      }
    });
  });
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
