// `network.host`: an IP, a host name, or one of OpenSearch's special values
// (`_local_`, `_local:ipv4_`, `_local:ipv6_`, `_site_`, `_global_`, `_<interface>_`).
import os from 'node:os';
import { isIP } from 'node:net';
import { OpenSearchError } from '../http/errors';

const HOSTNAME_RE = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

function invalid(value: string, key: string, detail: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]: ${detail}`);
}

type Family = 'IPv4' | 'IPv6';

function interfaceAddresses(filter: (a: os.NetworkInterfaceInfo, name: string) => boolean): os.NetworkInterfaceInfo[] {
  const out: os.NetworkInterfaceInfo[] = [];
  for (const [name, infos] of Object.entries(os.networkInterfaces())) {
    for (const info of infos ?? []) if (filter(info, name)) out.push(info);
  }
  // IPv4 first, as OpenSearch prefers it.
  return out.sort((a, b) => (a.family === b.family ? 0 : a.family === 'IPv4' ? -1 : 1));
}

function isSiteLocal(info: os.NetworkInterfaceInfo): boolean {
  if (info.family === 'IPv4') return /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(info.address);
  return /^fe[c-f]/i.test(info.address);
}

function first(list: os.NetworkInterfaceInfo[], value: string, key: string, what: string): string {
  const found = list[0];
  if (found === undefined) throw invalid(value, key, `no up-and-running ${what} addresses found`);
  return found.address;
}

/** Resolves the setting to the address to listen on. */
export function parseNetworkHost(value: string, key = 'network.host'): string {
  const v = value.trim();
  if (v.length === 0) throw invalid(value, key, 'must not be empty');
  const special = /^_(.+?)(?::(ipv4|ipv6))?_$/.exec(v);
  if (special !== null) {
    const name = special[1] ?? '';
    const family: Family | undefined = special[2] === 'ipv4' ? 'IPv4' : special[2] === 'ipv6' ? 'IPv6' : undefined;
    const wanted = (info: os.NetworkInterfaceInfo): boolean => family === undefined || info.family === family;
    switch (name) {
      case 'local':
        return family === 'IPv6' ? '::1' : '127.0.0.1';
      case 'site':
        return first(interfaceAddresses((i) => !i.internal && isSiteLocal(i) && wanted(i)), value, key, 'site-local (private)');
      case 'global':
        return first(interfaceAddresses((i) => !i.internal && !isSiteLocal(i) && !/^fe80/i.test(i.address) && wanted(i)), value, key, 'global-scope (public)');
      default: {
        const names = Object.keys(os.networkInterfaces());
        if (!names.includes(name)) throw invalid(value, key, `no interface named [${name}] found, got [${names.join(', ')}]`);
        return first(interfaceAddresses((i, n) => n === name && wanted(i)), value, key, `[${name}]`);
      }
    }
  }
  const unbracketed = v.startsWith('[') && v.endsWith(']') ? v.slice(1, -1) : v;
  if (isIP(unbracketed) !== 0) return unbracketed;
  if (v.toLowerCase() === 'localhost') return '127.0.0.1';
  if (HOSTNAME_RE.test(v)) return v;
  throw invalid(value, key, 'expected an IP address, a host name or one of _local_, _site_, _global_, _[interface]_');
}
