/**
 * Where a webhook may go (decision 0066): https anywhere public, http only to loopback (local testing), and never to
 * a loopback, link-local, private, metadata or other non-public address (IPv4-mapped IPv6 forms included) unless
 * WEBHOOK_ALLOW_PRIVATE=true. Ranges are ipaddr.js's (the classifier Fastify's proxy-addr uses), not masks of ours:
 * anything it does not call `unicast` is refused. The URL is checked when saved, and every connection checks the
 * address it is about to use (`guardedLookup`), so a name that resolves elsewhere later (DNS rebinding) is refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { type BlockedAddressKind, WEBHOOK_MESSAGES, webhookUrlProblem } from '@tessera/common/webhooks';
import ipaddr from 'ipaddr.js';

const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254']);

const KINDS: Record<string, BlockedAddressKind> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/** What kind of non-public address this is, or null for a public one (or text that is not an address). */
export function blockedKind(address: string): BlockedAddressKind | null {
  if (!ipaddr.isValid(address)) return null;
  const ip = ipaddr.process(address); // ::ffff:10.0.0.1 is 10.0.0.1
  if (METADATA.has(ip.toNormalizedString()) || METADATA.has(ip.toString())) return 'cloud metadata';
  const range = ip.range();
  if (range === 'unicast') return null;
  return KINDS[range] ?? 'reserved';
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/** The URL's host without IPv6 brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The URL's shape (common/webhooks.ts): one rule for the console's form and the server. */
export const urlShapeProblem = webhookUrlProblem;

const RESOLVE_TIMEOUT_MS = 5000;

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS);
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? [] : addresses);
    });
  });
}

/**
 * The whole check of a URL about to be saved: its shape, then its host's addresses (an address given as the host,
 * or every address its name resolves to). Null when it may be used; otherwise the message naming the problem.
 */
export async function urlProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  const shape = urlShapeProblem(text);
  if (shape) return shape;
  const url = new URL(text);
  const host = bareHost(url);
  if (ipaddr.isValid(host)) {
    const kind = allowPrivate ? null : blockedKind(host);
    return kind ? WEBHOOK_MESSAGES.blockedAddress(url.hostname, kind) : null;
  }
  const addresses = await resolveAll(host);
  if (addresses.length === 0) return WEBHOOK_MESSAGES.unresolved(url.hostname);
  if (allowPrivate) return null;
  for (const { address } of addresses) {
    const kind = blockedKind(address);
    if (kind) return WEBHOOK_MESSAGES.blockedName(url.hostname, address, kind);
  }
  return null;
}

/** A connection refused because of where it would have gone. */
export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

/**
 * Why a connection to `address` may not be made (`a private address`), or null: a non-public address unless allowed,
 * and for plain http anything but loopback.
 */
export function connectProblem(address: string, options: { allowPrivate: boolean; http: boolean }): string | null {
  if (options.http && !isLoopback(address)) return 'not a loopback address, and http is only for loopback';
  const kind = options.allowPrivate ? null : blockedKind(address);
  return kind ? `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address` : null;
}

/**
 * A `lookup` for net/tls connections that resolves the name and refuses it when any of its addresses may not be
 * reached: the socket then connects to an address checked here, never to one a second resolution returns.
 */
export function guardedLookup(options: { allowPrivate: boolean; http: boolean }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as LookupAddress[];
      for (const { address } of list) {
        const problem = connectProblem(address, options);
        if (problem) {
          return callback(new BlockedAddressError(`${hostname} resolves to ${address}, ${problem}: not sent.`), '', 4);
        }
      }
      if (list.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if (lookupOptions.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
