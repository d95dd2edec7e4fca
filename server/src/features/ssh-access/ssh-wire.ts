/**
 * The SSH wire format (RFC 4251 §5) as OpenSSH reads a public key blob: uint32-length strings that must fit the
 * data, mpints that must not be negative (leading zero bytes are allowed: OpenSSH trims them), written back the
 * way OpenSSH writes them.
 */
import { SSH_MESSAGES } from '@tessera/common/ssh';

/** A pasted key the product does not take; the message names why and goes back as a 400. */
export class KeyRefused extends Error {}

export class WireReader {
  private at = 0;

  constructor(private readonly data: Buffer) {}

  /** The next string's bytes; KeyRefused (unreadable) when the data ends before it does. */
  bytes(): Buffer {
    if (this.data.length - this.at < 4) throw new KeyRefused(SSH_MESSAGES.unreadable);
    const length = this.data.readUInt32BE(this.at);
    const start = this.at + 4;
    if (length > this.data.length - start) throw new KeyRefused(SSH_MESSAGES.unreadable);
    this.at = start + length;
    return this.data.subarray(start, this.at);
  }

  /** The next string as a name (key type, curve): printable ASCII only, so it can be quoted in a message. */
  name(): string {
    const text = this.bytes().toString('latin1');
    if (!/^[A-Za-z0-9@._+-]{1,64}$/.test(text)) throw new KeyRefused(SSH_MESSAGES.unreadable);
    return text;
  }

  /** Whether every byte has been read. */
  get done(): boolean {
    return this.at === this.data.length;
  }
}

/** An mpint's value, or null when it is negative (its top bit set). */
export function mpintValue(bytes: Buffer): bigint | null {
  if (bytes.length === 0) return 0n;
  if (bytes[0]! & 0x80) return null;
  return BigInt(`0x${bytes.toString('hex')}`);
}

export const bitLength = (value: bigint) => (value === 0n ? 0 : value.toString(2).length);

/** A string on the wire. */
export function wireString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A non-negative mpint as OpenSSH writes it: minimal big-endian bytes, a 0 byte first when the top bit is set. */
export function wireMpint(value: bigint): Buffer {
  let hex = value === 0n ? '' : value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (/^[89a-f]/.test(hex)) hex = `00${hex}`;
  return wireString(Buffer.from(hex, 'hex'));
}
