import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCertificates, subjectDn, type NodeCertificates } from '../../src/security/certificates';

const FILES = ['root-ca.pem', 'root-ca-key.pem', 'node.pem', 'node-key.pem', 'admin.pem', 'admin-key.pem'];
const OPTIONS = { hostnames: ['node-1.quarry.test'], ips: ['10.11.12.13', '0:0:0:0:0:0:0:1'] };

let root: string;
let dir: string;
let certs: NodeCertificates;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-certs-'));
  dir = path.join(root, 'config', 'certs');
  certs = await ensureCertificates(dir, OPTIONS);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

describe('ensureCertificates', () => {
  it('creates the six files on the first call and loads the same ones after', async () => {
    expect(certs.created).toBe(true);
    expect(certs.dir).toBe(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([...FILES].sort());
    expect(modeOf(dir)).toBe(0o700);
    for (const key of ['root-ca-key.pem', 'node-key.pem', 'admin-key.pem']) expect(modeOf(path.join(dir, key))).toBe(0o600);
    expect(certs.nodeKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(certs.adminKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(fs.readFileSync(path.join(dir, 'node.pem'), 'utf8')).toBe(certs.nodeCert);
    expect(certs.adminDn).toBe('CN=admin,OU=client,O=quarry');

    const again = await ensureCertificates(dir, { hostnames: ['elsewhere'], ips: [] });
    expect(again.created).toBe(false);
    expect({ ...again, created: true }).toEqual(certs);
  });

  it('issues the node and admin certificates from a self-signed CA', () => {
    const ca = new X509Certificate(certs.caCert);
    const node = new X509Certificate(certs.nodeCert);
    const admin = new X509Certificate(certs.adminCert);

    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    for (const leaf of [node, admin]) {
      expect(leaf.ca).toBe(false);
      expect(leaf.checkIssued(ca)).toBe(true);
      expect(leaf.verify(ca.publicKey)).toBe(true);
    }
    expect(node.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(admin.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);

    const san = (node.subjectAltName ?? '').split(', ');
    expect(san).toEqual(expect.arrayContaining(['DNS:node-1.quarry.test', 'DNS:localhost', 'IP Address:127.0.0.1', 'IP Address:10.11.12.13']));
    // "::1" was both passed (written out in full) and added by default: one entry.
    expect(san.filter((entry) => entry.startsWith('IP Address:') && entry.endsWith(':1') && !entry.includes('.'))).toHaveLength(1);

    expect(subjectDn(certs.caCert)).toBe('CN=Quarry Root CA,OU=quarry,O=quarry');
    expect(subjectDn(node)).toBe('CN=node-1.quarry.test,OU=node,O=quarry');
    const years = (Date.parse(node.validTo) - Date.parse(node.validFrom)) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeCloseTo(10, 1);
    expect(ca.serialNumber).toMatch(/^[0-9A-F]{32}$/);
  });

  it('completes a mutual TLS handshake on loopback with the admin certificate', async () => {
    const server = tls.createServer({ key: certs.nodeKey, cert: certs.nodeCert, ca: certs.caCert, requestCert: true, rejectUnauthorized: false });
    const seen = new Promise<{ authorized: boolean; dn: string | undefined }>((resolve) => {
      server.once('secureConnection', (socket) => {
        const peer = socket.getPeerX509Certificate();
        resolve({ authorized: socket.authorized, dn: peer && subjectDn(peer) });
        socket.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const client = tls.connect({ host: '127.0.0.1', port, ca: certs.caCert, cert: certs.adminCert, key: certs.adminKey, servername: 'localhost' });
      const clientAuthorized = await new Promise<boolean>((resolve, reject) => {
        client.once('secureConnect', () => resolve(client.authorized));
        client.once('error', reject);
      });
      expect(clientAuthorized).toBe(true);
      expect(await seen).toEqual({ authorized: true, dn: certs.adminDn });
      client.destroy();

      // Without the CA the node's certificate leads nowhere the client trusts.
      const stranger = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false });
      const outcome = await new Promise<{ authorized: boolean; error: string }>((resolve, reject) => {
        stranger.once('secureConnect', () => resolve({ authorized: stranger.authorized, error: String(stranger.authorizationError) }));
        stranger.once('error', reject);
      });
      stranger.destroy();
      expect(outcome.authorized).toBe(false);
      expect(outcome.error).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT_IN_CHAIN/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a partial set, naming the missing files, and leaves the rest untouched', async () => {
    const partial = path.join(root, 'partial');
    await ensureCertificates(partial, OPTIONS);
    fs.rmSync(path.join(partial, 'admin.pem'));
    const before = fs.readFileSync(path.join(partial, 'root-ca.pem'), 'utf8');

    await expect(ensureCertificates(partial, OPTIONS)).rejects.toThrow(/missing admin\.pem/);
    expect(fs.existsSync(path.join(partial, 'admin.pem'))).toBe(false);
    expect(fs.readFileSync(path.join(partial, 'root-ca.pem'), 'utf8')).toBe(before);
  });

  it('refuses a key that does not belong to its certificate', async () => {
    const mixed = path.join(root, 'mixed');
    await ensureCertificates(mixed, OPTIONS);
    fs.copyFileSync(path.join(dir, 'node-key.pem'), path.join(mixed, 'node-key.pem'));

    await expect(ensureCertificates(mixed, OPTIONS)).rejects.toThrow(/node-key\.pem\] is not the private key of \[.*node\.pem\]/);
  });
});
