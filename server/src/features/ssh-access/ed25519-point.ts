/**
 * Whether 32 bytes are an ed25519 public key that stands for a private one. OpenSSH checks only the length; this
 * decodes the point as RFC 8032 §5.1.3 does (y below p, an x exists for it) and refuses the eight points of small
 * order: with the neutral element as public key, (R = sB, s) verifies for every message, so anyone could sign.
 */
const P = 2n ** 255n - 19n;
const mod = (a: bigint) => ((a % P) + P) % P;

function pow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const D = mod(-121665n * pow(121666n, P - 2n));
const SQRT_MINUS_ONE = pow(2n, (P - 1n) / 4n);

type Point = readonly [x: bigint, y: bigint];
type Projective = readonly [x: bigint, y: bigint, z: bigint];

/** Doubling in projective coordinates on -x² + y² = 1 + d·x²·y² (no inversion; "dbl-2008-bbjlp"). */
function double([x, y, z]: Projective): Projective {
  const b = mod((x + y) * (x + y));
  const c = mod(x * x);
  const d = mod(y * y);
  const f = mod(d - c);
  const j = mod(f - 2n * z * z);
  return [mod((b - c - d) * j), mod(f * (mod(-c) - d)), mod(f * j)];
}

function decode(bytes: Buffer): Point | null {
  const sign = bytes.readUInt8(31) >> 7;
  const littleEndian = Buffer.from(bytes);
  littleEndian.writeUInt8(littleEndian.readUInt8(31) & 0x7f, 31);
  const y = BigInt(`0x${littleEndian.reverse().toString('hex')}`);
  if (y >= P) return null;
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  const vxx = mod(v * x * x);
  if (vxx === mod(-u) && vxx !== u) x = mod(x * SQRT_MINUS_ONE);
  else if (vxx !== u) return null;
  if (x === 0n && sign === 1) return null;
  if (Number(x & 1n) !== sign) x = P - x;
  return [x, y];
}

export function isUsableEd25519Point(bytes: Buffer): boolean {
  if (bytes.length !== 32) return false;
  const point = decode(bytes);
  if (!point) return false;
  let [x, y, z]: Projective = [point[0], point[1], 1n];
  for (let i = 0; i < 3; i++) [x, y, z] = double([x, y, z]);
  return !(x === 0n && y === z); // 8·P is the neutral element (0, 1)
}
