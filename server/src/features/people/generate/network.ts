/**
 * IP addresses and mobile advertising ids. Each comes from a numbered space shuffled by a keyed permutation
 * (see permutation.ts), so every one is unique in the graph; household members share their home's addresses on
 * purpose. IPv4 addresses are public unicast in blocks that US ISPs hold; IPv6 ones start with a US ISP's prefix.
 */
import { KeyedPermutation, UniqueSpace } from './permutation';
import type { Rng, SeedKey } from './prng';

/** First octets of the IPv4 pool: whole /8s of public unicast space (no private, shared or reserved ranges). */
const V4_BLOCKS = [
  24, 47, 50, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 96, 97, 98, 99, 104, 107, 108, 173, 174, 184, 208,
];
/** Last octet 1-254: no network or broadcast-looking addresses. */
const HOSTS = 254;
const V4_SIZE = V4_BLOCKS.length * 65_536 * HOSTS;

/** Two leading groups of a US ISP's IPv6 space (residential and mobile). */
const V6_PREFIXES = ['2601:1c0', '2600:1700', '2603:6010', '2607:fb90', '2600:387', '2602:306'];
const V6_SIZE = 65_535 * 65_535;

const RESERVED = 100_000;

const hex16 = (rng: Rng) => rng.between(1, 0xffff).toString(16);

export class IpAddresses {
  private readonly v4: UniqueSpace;
  private readonly v6: UniqueSpace;

  constructor(seed: SeedKey) {
    this.v4 = new UniqueSpace(new KeyedPermutation(V4_SIZE, seed.rng('ipv4').words()), RESERVED, 'IPv4 addresses');
    this.v6 = new UniqueSpace(new KeyedPermutation(V6_SIZE, seed.rng('ipv6').words()), RESERVED, 'IPv6 prefixes');
  }

  private static v4At(index: number): string {
    const block = V4_BLOCKS[Math.floor(index / (65_536 * HOSTS))]!;
    const rest = index % (65_536 * HOSTS);
    const middle = Math.floor(rest / HOSTS);
    return `${block}.${middle >>> 8}.${middle & 255}.${(rest % HOSTS) + 1}`;
  }

  /**
   * Canonical text (RFC 5952): lower-case hex without leading zeros; every group is non-zero, so nothing is
   * shortened with '::'.
   */
  private static v6At(rng: Rng, index: number): string {
    const g3 = (Math.floor(index / 65_535) + 1).toString(16);
    const g4 = ((index % 65_535) + 1).toString(16);
    return `${rng.pick(V6_PREFIXES)}:${g3}:${g4}:${hex16(rng)}:${hex16(rng)}:${hex16(rng)}:${hex16(rng)}`;
  }

  v4Address(): string {
    return IpAddresses.v4At(this.v4.take());
  }

  v6Address(rng: Rng): string {
    return IpAddresses.v6At(rng, this.v6.take());
  }

  absentV4(): string {
    return IpAddresses.v4At(this.v4.absent());
  }

  absentV6(rng: Rng): string {
    return IpAddresses.v6At(rng, this.v6.absent());
  }
}

/** An IPv6 address written out in full and in capitals ("2601:01C0:..."): the same address, another shape. */
export function expandedIpv6(ip: string): string {
  return ip
    .split(':')
    .map((g) => g.padStart(4, '0'))
    .join(':')
    .toUpperCase();
}

const HEX = '0123456789abcdef';
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => HEX[i >>> 4]! + HEX[i & 15]!);
const hex16bits = (n: number) => BYTE_HEX[(n >>> 8) & 255]! + BYTE_HEX[n & 255]!;
const hex32 = (n: number) => hex16bits(n >>> 16) + hex16bits(n & 0xffff);

export class DeviceIds {
  private readonly space: UniqueSpace;

  constructor(seed: SeedKey) {
    this.space = new UniqueSpace(new KeyedPermutation(2 ** 32, seed.rng('devices').words()), RESERVED, 'device ids');
  }

  private static format(rng: Rng, index: number): string {
    const a = rng.next();
    const b = hex32(rng.next());
    const variant = HEX[8 + (rng.next() >>> 30)]!;
    const d = rng.next();
    return `${hex32(index)}-${hex16bits(a >>> 16)}-4${b.slice(5)}-${variant}${b.slice(0, 3)}-${hex16bits(a & 0xffff)}${hex32(d)}`;
  }

  /** A lower-case, hyphenated, version-4-shaped UUID whose first eight digits are unique in the graph. */
  take(rng: Rng): string {
    return DeviceIds.format(rng, this.space.take());
  }

  absent(rng: Rng): string {
    return DeviceIds.format(rng, this.space.absent());
  }
}
