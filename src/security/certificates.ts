// The node's own TLS material. Like OpenSearch's demo configuration, a node that starts with no
// certificates makes a private root CA, a node certificate (server and inter-node client) and an
// admin client certificate, all signed by that CA; every later start loads the same files, so the
// CA that clients were told to trust stays the one that signed the node's certificate.
//
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API
// at load time; this import must stay above the library's.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface NodeCertificates {
  readonly dir: string;
  readonly created: boolean;
  readonly caCert: string;
  readonly nodeCert: string;
  readonly nodeKey: string;
  readonly adminCert: string;
  readonly adminKey: string;
  readonly adminDn: string;
}

export interface CertificateOptions {
  readonly hostnames: readonly string[];
  readonly ips: readonly string[];
}

const FILES = {
  caCert: 'root-ca.pem',
  caKey: 'root-ca-key.pem',
  nodeCert: 'node.pem',
  nodeKey: 'node-key.pem',
  adminCert: 'admin.pem',
  adminKey: 'admin-key.pem',
} as const;
type Part = keyof typeof FILES;
const PARTS = Object.keys(FILES) as Part[];
const KEY_PARTS: ReadonlySet<Part> = new Set<Part>(['caKey', 'nodeKey', 'adminKey']);

const KEY_ALGORITHM: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING_ALGORITHM: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const VALIDITY_YEARS = 10;
// Backdated so that a peer whose clock runs a little behind does not see a brand-new
// certificate as not yet valid.
const NOT_BEFORE_SLACK_MS = 60 * 60 * 1000;

const ALWAYS_HOSTNAMES = ['localhost'];
const ALWAYS_IPS = ['127.0.0.1', '::1'];

/**
 * Loads the node's certificates from `dir`, or creates them there when none exist yet.
 * A partial set is refused rather than completed: completing it would mean a new CA or new
 * keys that no longer match what was handed out, and the operator should decide that.
 */
export async function ensureCertificates(dir: string, options: CertificateOptions): Promise<NodeCertificates> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const present = await Promise.all(PARTS.map((part) => exists(path.join(dir, FILES[part]))));
  const missing = PARTS.filter((_, i) => !present[i]).map((part) => FILES[part]);
  if (missing.length === 0) return load(dir);
  if (missing.length < PARTS.length) {
    throw new Error(
      `incomplete certificate set in [${dir}]: missing ${missing.join(', ')}; ` +
        'restore them, or remove the remaining certificate files to have a new set created',
    );
  }
  return create(dir, options);
}

/**
 * The certificate's subject as an RFC 2253 string, the form OpenSearch prints and matches admin
 * DNs in ("CN=admin,OU=client,O=quarry"). Takes a PEM/DER certificate or a parsed one, such as
 * `TLSSocket.getPeerX509Certificate()` returns.
 */
export function subjectDn(cert: string | Buffer | X509Certificate): string {
  const parsed = cert instanceof X509Certificate ? cert : new X509Certificate(cert);
  // node prints one RDN a line in certificate order (most significant first); RFC 2253 lists them the other way round.
  return parsed.subject
    .split('\n')
    .filter((line) => line !== '')
    .reverse()
    .map((rdn) => rdn.replaceAll(' + ', '+'))
    .join(',');
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.access(file, fsConstants.F_OK);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

async function load(dir: string): Promise<NodeCertificates> {
  const pem = {} as Record<Part, string>;
  for (const part of PARTS) pem[part] = await fsp.readFile(path.join(dir, FILES[part]), 'utf8');
  // A mismatched or damaged file would otherwise surface later as an opaque TLS error with
  // no file name in it.
  checkPair(dir, pem, 'caCert', 'caKey');
  checkPair(dir, pem, 'nodeCert', 'nodeKey');
  checkPair(dir, pem, 'adminCert', 'adminKey');
  return result(dir, false, pem);
}

function checkPair(dir: string, pem: Record<Part, string>, certPart: Part, keyPart: Part): void {
  const cert = parse(dir, certPart, () => new X509Certificate(pem[certPart]));
  const key = parse(dir, keyPart, () => createPrivateKey(pem[keyPart]));
  if (!cert.checkPrivateKey(key)) {
    throw new Error(`[${path.join(dir, FILES[keyPart])}] is not the private key of [${path.join(dir, FILES[certPart])}]`);
  }
}

function parse<T>(dir: string, part: Part, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new Error(`cannot read [${path.join(dir, FILES[part])}]: ${(err as Error).message}`);
  }
}

function result(dir: string, created: boolean, pem: Record<Part, string>): NodeCertificates {
  return {
    dir,
    created,
    caCert: pem.caCert,
    nodeCert: pem.nodeCert,
    nodeKey: pem.nodeKey,
    adminCert: pem.adminCert,
    adminKey: pem.adminKey,
    adminDn: subjectDn(pem.adminCert),
  };
}

async function create(dir: string, options: CertificateOptions): Promise<NodeCertificates> {
  const { hostnames, ips } = subjectAltNames(options);
  x509.cryptoProvider.set(webcrypto);
  const notBefore = new Date(Date.now() - NOT_BEFORE_SLACK_MS);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  const validity = { notBefore, notAfter, signingAlgorithm: SIGNING_ALGORITHM };

  const [caKeys, nodeKeys, adminKeys] = await Promise.all([generateKeys(), generateKeys(), generateKeys()]);

  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    ...validity,
    serialNumber: serialNumber(),
    name: dn('Quarry Root CA', 'quarry'),
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const issuedBy = {
    ...validity,
    issuer: ca.subjectName,
    signingKey: caKeys.privateKey,
  };
  const authorityKeyId = await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey);

  const node = await x509.X509CertificateGenerator.create({
    ...issuedBy,
    serialNumber: serialNumber(),
    subject: dn(hostnames[0] ?? 'localhost', 'node'),
    publicKey: nodeKeys.publicKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      // keyEncipherment means nothing to an EC key but matches OpenSearch's demo node
      // certificate, which some clients' checks were written against.
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      // clientAuth too: nodes present this certificate to each other.
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...hostnames.map((value) => ({ type: 'dns' as const, value })),
        ...ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
      authorityKeyId,
      await x509.SubjectKeyIdentifierExtension.create(nodeKeys.publicKey),
    ],
  });

  const admin = await x509.X509CertificateGenerator.create({
    ...issuedBy,
    serialNumber: serialNumber(),
    subject: dn('admin', 'client'),
    publicKey: adminKeys.publicKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      authorityKeyId,
      await x509.SubjectKeyIdentifierExtension.create(adminKeys.publicKey),
    ],
  });

  const pem: Record<Part, string> = {
    caCert: certPem(ca),
    caKey: keyPem(caKeys.privateKey),
    nodeCert: certPem(node),
    nodeKey: keyPem(nodeKeys.privateKey),
    adminCert: certPem(admin),
    adminKey: keyPem(adminKeys.privateKey),
  };
  await writeAll(dir, pem);
  return result(dir, true, pem);
}

function subjectAltNames(options: CertificateOptions): { hostnames: string[]; ips: string[] } {
  const hostnames = new Set<string>();
  const ips = new Set<string>();
  for (const name of [...options.hostnames, ...ALWAYS_HOSTNAMES]) {
    const trimmed = name.trim();
    if (trimmed === '') continue;
    // An address given as a host name can only ever match as an IP entry.
    if (net.isIP(trimmed) !== 0) ips.add(canonicalIp(trimmed));
    else hostnames.add(trimmed.toLowerCase());
  }
  for (const ip of [...options.ips, ...ALWAYS_IPS]) ips.add(canonicalIp(ip.trim()));
  return { hostnames: [...hostnames], ips: [...ips] };
}

function canonicalIp(ip: string): string {
  const family = net.isIP(ip);
  if (family === 4) return ip;
  // The WHATWG URL parser writes IPv6 in RFC 5952 form, so "::1" and "0:0:0:0:0:0:0:1" dedupe,
  // and it rewrites embedded IPv4 ("::ffff:1.2.3.4") to hex, which the SAN encoder cannot read.
  // Zone ids ("fe80::1%eth0") have no place in a certificate and fail here.
  if (family === 6 && !ip.includes('%')) return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  throw new Error(`[${ip}] is not an IP address that a certificate can name`);
}

// Most significant RDN first in the certificate, so that RFC 2253 readers print CN first.
function dn(cn: string, ou: string): x509.Name {
  return new x509.Name([{ O: [{ utf8String: 'quarry' }] }, { OU: [{ utf8String: ou }] }, { CN: [{ utf8String: cn }] }]);
}

function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  // Top bit clear keeps the DER INTEGER positive; the next bit set keeps it 16 bytes long, since
  // DER would otherwise drop a leading zero byte.
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return Buffer.from(bytes).toString('hex');
}

async function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  // Extractable so the private key can be written out as PKCS#8.
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
}

function certPem(cert: x509.X509Certificate): string {
  return withNewline(cert.toString('pem'));
}

function keyPem(key: webcrypto.CryptoKey): string {
  return withNewline(KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }).toString());
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * Every file is written to `<name>.tmp` and fsynced before any is renamed into place, so a kill
 * can leave stray .tmp files but never a torn PEM, and the renames that follow are the only
 * moment at which a partial set can arise.
 */
async function writeAll(dir: string, pem: Record<Part, string>): Promise<void> {
  const written: string[] = [];
  try {
    for (const part of PARTS) {
      const tmp = path.join(dir, `${FILES[part]}.tmp`);
      written.push(tmp);
      await writeSynced(tmp, pem[part], KEY_PARTS.has(part) ? 0o600 : 0o644);
    }
    for (const part of PARTS) {
      const file = path.join(dir, FILES[part]);
      await fsp.rename(`${file}.tmp`, file);
    }
  } catch (err) {
    await Promise.all(written.map((tmp) => fsp.rm(tmp, { force: true }).catch(() => undefined)));
    throw err;
  }
  // Without this the renames themselves may not survive a power loss.
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeSynced(file: string, data: string, mode: number): Promise<void> {
  const handle = await fsp.open(file, 'w', mode);
  try {
    // open's mode applies only when it creates the file, and through the umask; a .tmp left by
    // a killed run keeps its old mode, so set it before the key is written.
    await handle.chmod(mode);
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
