import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMimeMessage } from '../../src/notifications/mime-message';
import { sendMail, SmtpError } from '../../src/notifications/smtp-client';
import { freePort } from '../support/server';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

let receiver: SmtpReceiver;
const timeouts = { connectMs: 5000, replyMs: 5000 };

beforeAll(async () => {
  receiver = await startSmtpReceiver({ reject: ['nobody@example.com'] });
});

afterAll(async () => {
  await receiver.close();
});

function failureOf(p: Promise<unknown>): Promise<SmtpError> {
  return p.then(
    () => {
      throw new Error('sent');
    },
    (e: unknown) => e as SmtpError,
  );
}

describe('MIME message', () => {
  it('is one text/plain part with the title as Subject, encoded when not ASCII', () => {
    const ascii = buildMimeMessage({ from: 'a@example.com', to: 'b@example.com', subject: 'Force merge done', text: 'line one\nline two', date: new Date(Date.UTC(2025, 4, 20, 10, 0, 0)) });
    expect(ascii).toMatch(/^Date: Tue, 20 May 2025 10:00:00 \+0000\r\nFrom: a@example.com\r\nTo: b@example.com\r\nMessage-ID: <[0-9a-f]{24}@[^>]+>\r\nSubject: Force merge done\r\nMIME-Version: 1.0\r\nContent-Type: text\/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nline one\r\nline two\r\n$/);
    const utf8 = buildMimeMessage({ from: 'a@example.com', to: 'b@example.com', subject: 'Fusion terminée', text: 'déjà' });
    expect(utf8).toContain(`Subject: =?UTF-8?B?${Buffer.from('Fusion terminée').toString('base64')}?=\r\n`);
    expect(utf8).toContain(`Content-Transfer-Encoding: base64\r\n\r\n${Buffer.from('déjà').toString('base64')}\r\n`);
  });
});

describe('SMTP client', () => {
  it('sends EHLO, MAIL FROM, RCPT TO and DATA, dot-stuffing the message', async () => {
    const message = buildMimeMessage({ from: 'quarry@example.com', to: 'ops@example.com', subject: 'S', text: '.starts with a dot\nend' });
    await sendMail({ host: '127.0.0.1', port: receiver.port, method: 'none', from: 'quarry@example.com', to: 'ops@example.com', message }, timeouts);
    const mail = receiver.mails.at(-1);
    expect(mail?.from).toBe('quarry@example.com');
    expect(mail?.to).toEqual(['ops@example.com']);
    expect(mail?.data).toBe(message);
    expect(mail?.commands.map((c) => c.split(' ')[0])).toEqual(['EHLO', 'MAIL', 'RCPT', 'DATA']);
  });

  it('reports a refused recipient, an unreachable server and a missing STARTTLS apart', async () => {
    const mail = { host: '127.0.0.1', port: receiver.port, method: 'none' as const, from: 'quarry@example.com', to: 'nobody@example.com', message: 'Subject: x\r\n\r\nx\r\n' };
    const rejected = await failureOf(sendMail(mail, timeouts));
    expect(rejected.kind).toBe('rejected');
    expect(rejected.message).toBe('Invalid Addresses; nested exception is: 550 5.1.1 <nobody@example.com>: user unknown');
    const port = await freePort();
    const unreachable = await failureOf(sendMail({ ...mail, port, to: 'ops@example.com' }, timeouts));
    expect(unreachable.kind).toBe('connect');
    expect(unreachable.message).toMatch(new RegExp(`^Couldn't connect to host, port: 127.0.0.1, ${port}; timeout 5000; nested exception is: .*ECONNREFUSED`));
    const plain = await failureOf(sendMail({ ...mail, method: 'start_tls', to: 'ops@example.com' }, timeouts));
    expect(plain.kind).toBe('failed');
    expect(plain.message).toBe('STARTTLS is required but the server does not offer it');
  });

  it('asks for STARTTLS when offered and stops when the server cannot start it', async () => {
    const tlsLess = await startSmtpReceiver({ offerStartTls: true });
    try {
      const failed = await failureOf(
        sendMail({ host: '127.0.0.1', port: tlsLess.port, method: 'start_tls', from: 'quarry@example.com', to: 'ops@example.com', message: 'x\r\n' }, timeouts),
      );
      expect(failed.message).toBe('454 4.7.0 TLS not available');
      expect(tlsLess.mails).toEqual([]);
    } finally {
      await tlsLess.close();
    }
  });
});
