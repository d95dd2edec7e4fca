/**
 * Reads a pasted OpenSSH public key with sshpk: ed25519, ecdsa, or rsa of at least 3072 bits; anything else is
 * refused with the reason. The fingerprint is sshpk's SHA-256 one, which prints exactly as `ssh-keygen -lf` does.
 */
import { SSH_LIMITS, SSH_MESSAGES, type SshKeyType } from '@tessera/common/ssh';
import sshpk from 'sshpk';

export interface PublicKey {
  type: SshKeyType;
  bits: number;
  fingerprint: string;
  /** `{type} {base64}`, without a comment. */
  publicKey: string;
  /** The comment it was pasted with, if any. */
  comment: string;
}

export class KeyRefused extends Error {}

const CERTIFICATE = /^\S+-cert-v0[01]@openssh\.com(\s|$)/;

function read(text: string): sshpk.Key {
  try {
    return sshpk.parseKey(text, 'ssh');
  } catch {
    throw new KeyRefused(SSH_MESSAGES.unreadable);
  }
}

/** The key in `text` (one line, surrounding blanks ignored), or KeyRefused naming why not. */
export function parsePublicKey(text: string): PublicKey {
  const line = text.trim();
  if (/PRIVATE KEY-----/.test(line)) throw new KeyRefused(SSH_MESSAGES.privateKey);
  if (CERTIFICATE.test(line)) throw new KeyRefused(SSH_MESSAGES.certificate);
  if (/[\r\n]/.test(line)) throw new KeyRefused(SSH_MESSAGES.unreadable);
  const key = read(line);
  if (key.type === 'dsa') throw new KeyRefused(SSH_MESSAGES.dsa);
  if (key.type !== 'ed25519' && key.type !== 'ecdsa' && key.type !== 'rsa') {
    throw new KeyRefused(SSH_MESSAGES.unsupported(key.type));
  }
  if (key.type === 'rsa' && key.size < SSH_LIMITS.rsaMinBits) throw new KeyRefused(SSH_MESSAGES.rsaTooShort(key.size));
  const openssh = key.toString('ssh');
  const [kind, base64] = openssh.split(' ');
  return {
    type: key.type,
    bits: key.size,
    fingerprint: key.fingerprint('sha256').toString(),
    publicKey: `${kind} ${base64}`,
    comment: typeof key.comment === 'string' ? key.comment : '',
  };
}
