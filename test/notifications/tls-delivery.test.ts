// Deliveries over TLS: email both ways an smtp_account asks for it (`ssl`: TLS from the first
// byte; `start_tls`: STARTTLS first) and HTTPS webhooks, to loopback receivers whose certificate
// a test CA signed. The node trusts that CA through NODE_EXTRA_CA_CERTS, as a deployment with a
// private CA would; a client that does not trust it refuses the server.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverHttp } from '../../src/notifications/http-destination';
import { sendMail } from '../../src/notifications/smtp-client';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';

let dir: string;
let key: string;
let cert: string;
let implicit: SmtpReceiver;
let starttls: SmtpReceiver;
let hooks: HttpReceiver;
let server: QuarryServer;

/** A CA and a certificate for 127.0.0.1 it signed, made with the openssl CLI. */
function makeCertificates(): void {
  const run = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Quarry Test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext');
  key = fs.readFileSync(path.join(dir, 'server.key'), 'utf8');
  cert = fs.readFileSync(path.join(dir, 'server.crt'), 'utf8');
}

type Json = Record<string, any>;

async function call(method: string, p: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(server.url + p, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-smtp-tls-'));
  makeCertificates();
  implicit = await startSmtpReceiver({ tls: { key, cert, mode: 'implicit' } });
  starttls = await startSmtpReceiver({ tls: { key, cert, mode: 'starttls' } });
  hooks = await startHttpReceiver(() => ({ status: 201, body: 'created' }), { key, cert });
  const before = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = path.join(dir, 'ca.crt');
  try {
    server = await startQuarry();
  } finally {
    if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = before;
  }
});

afterAll(async () => {
  await cleanupServers();
  await implicit.close();
  await starttls.close();
  await hooks.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deliveries over TLS', () => {
  it('posts to an HTTPS webhook and Slack URL', async () => {
    const configs = '/_plugins/_notifications/configs';
    await call('POST', configs, { config_id: 'secure-hook', config: { name: 'Secure hook', config_type: 'webhook', webhook: { url: `${hooks.url}/hook` } } });
    await call('POST', configs, { config_id: 'secure-slack', config: { name: 'Secure Slack', config_type: 'slack', slack: { url: `${hooks.url}/slack` } } });
    for (const id of ['secure-hook', 'secure-slack']) {
      const sent = await call('POST', `/_plugins/_notifications/feature/test/${id}`);
      expect(sent.json.status_list[0].delivery_status).toEqual({ status_code: '200', status_text: 'created' });
    }
    expect(hooks.requests.map((r) => [r.path, r.body])).toEqual([
      ['/hook', 'Test message content body for config id secure-hook'],
      ['/slack', '{"text":"Test Message Title-secure-slack\\n\\nTest message content body for config id secure-slack"}'],
    ]);
    // This test process was not given the CA.
    const untrusted = await deliverHttp({ url: `${hooks.url}/hook`, method: 'POST', headers: {}, body: 'x', maxResponseChars: 100 });
    expect(untrusted.status_code).toBe('500');
    expect(untrusted.status_text).toMatch(/^Failed to send webhook message .*certificate/);
    expect(hooks.requests).toHaveLength(2);
  });

  it('sends through ssl and start_tls accounts', async () => {
    const configs = '/_plugins/_notifications/configs';
    for (const [id, method, port] of [
      ['ssl', 'ssl', implicit.port],
      ['tls', 'start_tls', starttls.port],
    ] as const) {
      const account = { name: id, config_type: 'smtp_account', smtp_account: { host: '127.0.0.1', port, method, from_address: 'quarry@example.com' } };
      expect((await call('POST', configs, { config_id: `${id}-account`, config: account })).status).toBe(200);
      const channel = { name: `${id} mail`, config_type: 'email', email: { email_account_id: `${id}-account`, recipient_list: [{ recipient: 'ops@example.com' }] } };
      expect((await call('POST', configs, { config_id: `${id}-mail`, config: channel })).status).toBe(200);
      const sent = await call('POST', `/_plugins/_notifications/feature/test/${id}-mail`);
      expect(sent.json.status_list[0].delivery_status).toEqual({ status_code: '200', status_text: 'Success' });
    }
    expect(implicit.mails.map((m) => [m.secure, m.to])).toEqual([[true, ['ops@example.com']]]);
    expect(starttls.mails.map((m) => [m.secure, m.to])).toEqual([[true, ['ops@example.com']]]);
    expect(starttls.mails[0]?.commands.map((c) => c.split(' ')[0])).toEqual(['EHLO', 'STARTTLS', 'EHLO', 'MAIL', 'RCPT', 'DATA']);
    expect(starttls.mails[0]?.data).toContain('\r\nSubject: Test Message Title-tls-mail\r\n');
  });

  it('refuses a server whose certificate it cannot verify', async () => {
    // This test process was not given the CA.
    const failed = await sendMail(
      { host: '127.0.0.1', port: implicit.port, method: 'ssl', from: 'quarry@example.com', to: 'ops@example.com', message: 'x\r\n' },
      { connectMs: 5000, replyMs: 5000 },
    ).then(
      () => undefined,
      (e: unknown) => e as Error & { kind: string },
    );
    expect(failed?.kind).toBe('failed');
    expect(failed?.message).toMatch(/certificate/);
    expect(implicit.mails).toHaveLength(1);
  });
});
