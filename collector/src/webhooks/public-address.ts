// Webhook targets must be public: a receiver URL must not reach the collector's own network
// (loopback, private, link-local, carrier NAT...). Checked on the address actually connected to,
// so a host name resolving to a private address (or re-resolving to one later) is refused too.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class PrivateAddressRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // IPv4-compatible IPv6 addresses (::/96, deprecated since 2006: [::7f00:1], which a URL makes of
  // [::127.0.0.1], reaches loopback) are never a public receiver; ipaddr.js calls them unicast.
  if (parsed.kind() === 'ipv6' && parsed.toByteArray().slice(0, 12).every((b) => b === 0)) return false;
  return parsed.range() === 'unicast';
}

/** The address of a URL's host when it is written as an IP literal (Node connects to those without a lookup). */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}

/** Why `target` may not be reached, known before connecting: not http(s), or a private address
 * written in it while only public ones may be (`what`: webhook, recording); null: try it (a host
 * name is checked as it resolves, publicOnlyLookup). */
export function refusedTarget(target: URL, publicOnly: boolean, what: string): string | null {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `${target.protocol} URLs are refused: http or https only`;
  const literal = literalAddress(target.hostname);
  return publicOnly && literal && !isPublicAddress(literal) ? `${what} address ${literal} is private` : null;
}

/** How long a webhook URL's host is looked up at configuration before it counts as not resolving. */
const CONFIGURATION_LOOKUP_MS = 2000;

/**
 * The first address of `hostname` that is not public (the literal itself, or what the name resolves
 * to); null when all are public, or when the name does not resolve (yet): delivery checks again.
 */
export async function privateAddressOf(hostname: string): Promise<string | null> {
  // One form first: `LOCALHOST.` is `localhost`, which a resolver may not find with its dot, and
  // every name under `.localhost` is loopback (RFC 6761) whatever a resolver says.
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return '127.0.0.1';
  const literal = literalAddress(host);
  if (literal) return isPublicAddress(literal) ? null : literal;
  const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), CONFIGURATION_LOOKUP_MS).unref());
  const addresses = await Promise.race([dns.promises.lookup(host, { all: true }).catch(() => []), timeout]);
  return addresses.find((a) => !isPublicAddress(a.address))?.address ?? null;
}

/** dns.lookup, failing when any resolved address is not public. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  // Said of any fetch: a webhook's receiver, a recording's source.
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new PrivateAddressRefused(`host ${hostname} resolves to ${refused.address}, a private address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
