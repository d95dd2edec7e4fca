/**
 * The product's SSH certificate authority: an ed25519 key made on first use by whichever process asks first, kept
 * sealed under the key-encryption key (like API key secrets), opened once per process. It signs OpenSSH user
 * certificates with sshpk (checked against real sshd in login.test.ts). Decision 0037.
 */
import sshpk from 'sshpk';
import type { Database } from '../../db/client';

/** What seals the CA key at rest: the app's API key sealer (features/keys/secrets.ts). */
export interface SecretSealer {
  seal(secret: string): Promise<string>;
  open(sealed: string): Promise<string | null>;
}

const CA_NAME = 'user-ca';

/**
 * Extensions every certificate carries: a terminal and port forwarding (tunnels to a database port); agent and X11
 * forwarding and ~/.ssh/rc are left out.
 */
const EXTENSIONS = ['permit-port-forwarding', 'permit-pty'];

export interface CertificateRequest {
  subject: sshpk.Key;
  principal: string;
  validAfter: Date;
  validBefore: Date;
  serial: number;
  /** Logged by sshd on every login with the certificate. */
  keyId: string;
}

export interface SshCa {
  /** The CA's public key, one line (`ssh-ed25519 AAAA... tessera-user-ca`). */
  publicKey(): Promise<string>;
  fingerprint(): Promise<string>;
  /**
   * What signs user certificates (each a `-cert.pub` line). Got before a transaction: opening the CA may read and
   * write the database, which must not wait on a transaction of the same caller.
   */
  signer(): Promise<(request: CertificateRequest) => string>;
}

function serialBytes(serial: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(serial));
  return out;
}

export function createSshCa(database: Database, sealer: SecretSealer): SshCa {
  let loaded: Promise<sshpk.PrivateKey> | null = null;

  async function load(): Promise<sshpk.PrivateKey> {
    const fresh = sshpk.generatePrivateKey('ed25519');
    fresh.comment = 'tessera-user-ca';
    await database.query(
      'insert into ssh_ca (name, private_sealed, public_key) values ($1, $2, $3) on conflict (name) do nothing',
      [CA_NAME, await sealer.seal(fresh.toString('openssh')), fresh.toPublic().toString('ssh')],
    );
    const [row] = await database.query<{ private_sealed: string }>(
      'select private_sealed from ssh_ca where name = $1',
      [CA_NAME],
    );
    const opened = await sealer.open(row!.private_sealed);
    if (!opened) throw new Error('The SSH CA key was sealed under another KEY_ENCRYPTION_KEY and cannot be opened.');
    const key = sshpk.parsePrivateKey(opened, 'openssh');
    key.comment = 'tessera-user-ca';
    return key;
  }

  const ca = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };

  return {
    publicKey: async () => (await ca()).toPublic().toString('ssh'),
    fingerprint: async () => (await ca()).fingerprint('sha256').toString(),
    async signer() {
      const key = await ca();
      return (request) => sign(key, request);
    },
  };
}

function sign(key: sshpk.PrivateKey, request: CertificateRequest): string {
  const cert = sshpk.createCertificate(
    sshpk.identityForUser(request.principal),
    request.subject,
    sshpk.identityForHost('tessera-user-ca'),
    key,
    {
      validFrom: request.validAfter,
      validUntil: request.validBefore,
      serial: serialBytes(request.serial),
      purposes: ['clientAuth'],
    },
  );
  // sshpk signs as it creates; the OpenSSH form is signed again with its key id and extensions set.
  const openssh = (cert as unknown as { signatures: { openssh: Record<string, unknown> } }).signatures.openssh;
  openssh.keyId = request.keyId;
  openssh.exts = EXTENSIONS.map((name) => ({ name, critical: false, data: Buffer.alloc(0) }));
  cert.signWith(key);
  return `${cert.toString('openssh')} ${request.keyId}`;
}
