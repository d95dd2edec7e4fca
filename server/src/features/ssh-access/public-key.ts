/**
 * Reads a pasted OpenSSH public key line (`type base64 [comment]`): the blob is read strictly by key-rules.ts
 * (OpenSSH's rules, RSA of at least 3072 bits, points on their curves, nothing after the key) and then by sshpk,
 * which gives the fingerprint (SHA-256, printed exactly as `ssh-keygen -lf` does) and later signs certificates for
 * it. Anything else is refused with the reason. Security-key (sk-) keys, which OpenSSH also logs in with, are
 * refused as unsupported: sshpk can neither read them nor certify them.
 */
import { SSH_MESSAGES, type SshKeyType } from '@tessera/common/ssh';
import sshpk from 'sshpk';
import { KEY_READERS } from './key-rules';
import { KeyRefused, WireReader, wireString } from './ssh-wire';

export { KeyRefused } from './ssh-wire';

export interface PublicKey {
  type: SshKeyType;
  bits: number;
  fingerprint: string;
  /** `{type} {base64}`, without a comment, as ssh-keygen writes it. */
  publicKey: string;
  /** The comment it was pasted with, if any. */
  comment: string;
}

const CERTIFICATE = /^\S+-cert-v0[01]@openssh\.com(\s|$)/;
const KEY_LINE = /^([A-Za-z0-9@._+-]+)[ \t]+([A-Za-z0-9+/]+={0,2})(?:[ \t]+(.*))?$/;
const unpadded = (base64: string) => base64.replace(/=+$/, '');

/** The blob in the base64 text, when the text is canonical base64 (no stray bits, nothing skipped). */
function decode(base64: string): Buffer {
  const blob = Buffer.from(base64, 'base64');
  if (unpadded(blob.toString('base64')) !== unpadded(base64)) throw new KeyRefused(SSH_MESSAGES.unreadable);
  return blob;
}

/** The key in `text` (one line, surrounding blanks ignored), or KeyRefused naming why not. */
export function parsePublicKey(text: string): PublicKey {
  const line = text.trim();
  if (/PRIVATE KEY-----/.test(line)) throw new KeyRefused(SSH_MESSAGES.privateKey);
  if (CERTIFICATE.test(line)) throw new KeyRefused(SSH_MESSAGES.certificate);
  const match = KEY_LINE.exec(line);
  if (!match || /[\r\n]/.test(line)) throw new KeyRefused(SSH_MESSAGES.unreadable);
  const [, declared, base64, comment = ''] = match as unknown as [string, string, string, string | undefined];
  const reader = new WireReader(decode(base64));
  const type = reader.name();
  if (type !== declared) throw new KeyRefused(SSH_MESSAGES.typeMismatch(declared, type));
  if (type === 'ssh-dss') throw new KeyRefused(SSH_MESSAGES.dsa);
  if (CERTIFICATE.test(type)) throw new KeyRefused(SSH_MESSAGES.certificate);
  const read = KEY_READERS.get(type);
  if (!read) throw new KeyRefused(SSH_MESSAGES.unsupported(type));
  const body = read(reader);
  if (!reader.done) throw new KeyRefused(SSH_MESSAGES.trailingData);
  const publicKey = `${type} ${Buffer.concat([wireString(type), body.fields]).toString('base64')}`;
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(publicKey, 'ssh');
  } catch {
    throw new KeyRefused(SSH_MESSAGES.unreadable);
  }
  return { type: body.type, bits: body.bits, fingerprint: key.fingerprint('sha256').toString(), publicKey, comment };
}
