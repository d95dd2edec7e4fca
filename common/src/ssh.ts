/**
 * SSH access (issue 20 item 3): the rules, limits and messages shared by the console's SSH page and the server.
 * Key types and the RSA minimum follow current guidance (NIST SP 800-57: RSA below 3072 bits is too weak past 2030).
 */
import { MESSAGES } from './validation';

export const SSH_LIMITS = {
  /** Characters of a pasted public key: an RSA key of 16384 bits is about 2,800. */
  publicKey: 8000,
  name: 100,
  rsaMinBits: 3072,
  /** The largest modulus OpenSSH reads (SSHBUF_MAX_BIGNUM, 2048 bytes). */
  rsaMaxBits: 16384,
  /** A login name as useradd takes it (POSIX portable user names). */
  principal: 32,
  groupName: 63,
  /** A certificate lasts 1 to this many hours, never past its grant's expiry. */
  certificateMaxHours: 24,
  /** How far ahead a grant's expiry may be. */
  grantMaxDays: 366,
  /** Items one list answers with (spec §9 largest page size). */
  list: 1000,
} as const;

export const SSH_KEY_TYPES = ['ed25519', 'ecdsa', 'rsa'] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

/** A login user: lowercase letter or _ first, then lowercase letters, digits, _ or -. */
const PRINCIPAL = /^[a-z_][a-z0-9_-]{0,31}$/;
/** A host group's name, as it appears in `?group=` on the hosts: lowercase letters, digits, dots, _ and -. */
const GROUP_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export const isPrincipal = (v: string) => PRINCIPAL.test(v);
export const isGroupName = (v: string) => GROUP_NAME.test(v);

export const SSH_MESSAGES = {
  publicKey: MESSAGES.required('a public key'),
  publicKeyTooLong: MESSAGES.tooLong('a public key', SSH_LIMITS.publicKey),
  unreadable:
    'The public key could not be read: paste one line of a .pub file, such as ~/.ssh/id_ed25519.pub, starting with ssh-ed25519, ecdsa-sha2-nistp256 or ssh-rsa.',
  privateKey:
    'This is a private key. Paste the public key (the .pub file beside it) and keep the private key to yourself.',
  certificate: 'This is an SSH certificate. Paste the public key it was issued for (the .pub file without -cert).',
  dsa: 'DSA keys are no longer accepted: use an ed25519, ecdsa or rsa (at least 3072 bits) key.',
  unsupported: (type: string) =>
    `Keys of type ${type} are not accepted: use an ed25519, ecdsa or rsa (at least 3072 bits) key.`,
  rsaTooShort: (bits: number) =>
    `This RSA key has ${bits} bits; RSA keys shorter than ${SSH_LIMITS.rsaMinBits} bits are refused. Make a new one with ssh-keygen -t ed25519 (or -t rsa -b ${SSH_LIMITS.rsaMinBits}).`,
  rsaTooLong: (bits: number) =>
    `This RSA key has ${bits} bits; OpenSSH reads RSA keys of at most ${SSH_LIMITS.rsaMaxBits} bits.`,
  rsaExponent:
    "This RSA key's public exponent is not valid: it must be odd, at least 3 and at most 64 bits long (ssh-keygen uses 65537).",
  rsaModulus:
    "This RSA key's modulus is not valid: it is negative, even or has a small prime factor, so it is not the product of two large primes.",
  ed25519Length: (bytes: number) =>
    `This ed25519 key is ${bytes} bytes long; an ed25519 public key is exactly 32 bytes.`,
  ed25519Point:
    'This ed25519 key is not a usable curve point: it does not decode to a point, or it is one of the weak small-order points.',
  ecdsaCurve: (declared: string, named: string) =>
    `This key says it is on curve ${declared} but names curve ${named} inside.`,
  ecdsaPointFormat: (curve: string, bytes: number) =>
    `This ECDSA key's point is not written as OpenSSH reads it: 04 followed by two ${bytes}-byte coordinates on ${curve}.`,
  ecdsaOffCurve: (curve: string) => `This ECDSA key's point is not on the curve ${curve}.`,
  typeMismatch: (declared: string, inside: string) =>
    `The key's text says ${declared} but the key inside is of type ${inside}.`,
  trailingData: 'The public key has extra data after the key itself: paste the line of the .pub file unchanged.',
  duplicate: 'This public key is already registered.',
  principal:
    'Please provide a login name: a lowercase letter or _ first, then lowercase letters, digits, _ or -, at most 32 characters.',
  groupName:
    'Please provide a group name: lowercase letters, digits, dots, _ or -, starting with a letter or digit, at most 63 characters.',
  groupTaken: (name: string) => `There is already a host group named ${name}.`,
  expiresPast: 'The expiry must be in the future.',
  expiresTooFar: `A grant can last at most ${SSH_LIMITS.grantMaxDays} days.`,
  hours: `Please provide a whole number of hours from 1 to ${SSH_LIMITS.certificateMaxHours}.`,
  grantNotLive: 'This grant has expired or been revoked.',
  grantOtherKey: 'This grant is for another key.',
  keyNotFound: 'There is no such SSH key.',
  groupNotFound: 'There is no such host group.',
  grantNotFound: 'There is no such SSH grant.',
  staffOnly: 'Only system administrators can register SSH keys.',
  rootOnly: 'Only system maintainers can manage host groups and SSH grants.',
  tokenMissing: "Send the host group's token in the Authorization header: Bearer {token}.",
  tokenWrong: 'The token is not valid for this host group.',
  userMissing: 'Please provide the login user (user=%u in AuthorizedKeysCommand).',
} as const;

/** A registered public key, as staff see it. */
export interface SshKey {
  id: number;
  userId: number;
  /** The owner's name, or e-mail address when the name is empty. */
  owner: string;
  name: string;
  type: SshKeyType;
  bits: number;
  /** `SHA256:` and the unpadded base64 digest, exactly as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  /** The key as one authorized_keys line: type and base64, without the comment. */
  publicKey: string;
  createdAt: string;
}

/** A named set of hosts (a cluster's or a deployment environment's) that asks for authorized keys with its token. */
export interface SshHostGroup {
  id: number;
  name: string;
  /** The token's last four characters; the token itself is in the creating reply only. */
  tokenLastFour: string;
  createdAt: string;
}

export interface SshGrant {
  id: number;
  keyId: number;
  groupId: number;
  principal: string;
  expiresAt: string;
  createdAt: string;
  createdBy: number | null;
  revokedAt: string | null;
}

export interface SshCertificate {
  /** The certificate's serial number. */
  id: number;
  keyId: number;
  grantId: number;
  principal: string;
  validAfter: string;
  validBefore: string;
  /** The `-cert.pub` line. */
  certificate: string;
}

export interface SshCa {
  /** The CA's public key, one line, for TrustedUserCAKeys. */
  publicKey: string;
  fingerprint: string;
}

/** Whether a grant lets its key in now. */
export const isLiveGrant = (grant: Pick<SshGrant, 'expiresAt' | 'revokedAt'>, now = Date.now()) =>
  grant.revokedAt === null && Date.parse(grant.expiresAt) > now;
