import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';

/**
 * SSRF protection for webhook endpoints (docs/product/integrations.md §4, decision 050). A URL an
 * Admin types makes our server send requests: it must not reach our own machine, the networks
 * behind it or a cloud's metadata address. Checked when the endpoint is saved AND before every
 * try, on the addresses the name resolves to then (DNS may change, or answer differently each
 * time: "rebinding"); the connection then goes to exactly the address checked (`pinnedLookup`).
 */

/** Where a delivery may not go: loopback, private, link-local, CGNAT, "this network", multicast and reserved. */
const REFUSED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(net, bits, 'ipv6');
}

/** True for an address a webhook may not be sent to (IPv4-mapped IPv6 counts as its IPv4: BlockList checks both). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface ResolvedEndpoint {
  url: URL;
  /** The host as written, without IPv6 brackets. */
  host: string;
  /** The address to connect to: the first one the name resolved to, all of them checked. */
  address: string;
  family: 4 | 6;
}

/** Parses and checks the URL's form (https, no user name); throws 400 with a message a person can act on. */
export function parseEndpointUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(MSG.webhookUrlInvalid, { url: MSG.webhookUrlInvalid });
  }
  const httpOk = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpOk) {
    const msg = url.protocol === 'http:' ? MSG.webhookHttpsOnly : MSG.webhookUrlInvalid;
    throw badRequest(msg, { url: msg });
  }
  if (url.username || url.password) throw badRequest(MSG.webhookUrlCredentials, { url: MSG.webhookUrlCredentials });
  if (!url.hostname) throw badRequest(MSG.webhookUrlInvalid, { url: MSG.webhookUrlInvalid });
  url.hash = '';
  return url;
}

/**
 * The URL's host resolved and checked: every address it resolves to must be public (one private
 * answer among public ones would let a rebinding name pick it). Throws 400 otherwise, unless
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=1, tests).
 */
export async function resolveEndpoint(url: URL, allowPrivate: boolean): Promise<ResolvedEndpoint> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw badRequest(MSG.webhookHostNotFound(host), { url: MSG.webhookHostNotFound(host) });
    }
    if (addresses.length === 0) throw badRequest(MSG.webhookHostNotFound(host), { url: MSG.webhookHostNotFound(host) });
  }
  if (!allowPrivate) {
    const bad = addresses.find((a) => isRefusedAddress(a.address));
    if (bad) throw badRequest(MSG.webhookPrivateAddress(host, bad.address), { url: MSG.webhookPrivateAddress(host, bad.address) });
  }
  const first = addresses[0];
  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A `lookup` for node:http(s) that answers the address already checked, so the connection cannot
 * go to another one a second DNS answer would give. TLS still checks the certificate against the
 * URL's host name (SNI and verification use the host, not the address).
 */
export function pinnedLookup(resolved: ResolvedEndpoint) {
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void,
  ) => {
    if (options?.all) callback(null, [{ address: resolved.address, family: resolved.family }]);
    else callback(null, resolved.address, resolved.family);
  };
}
