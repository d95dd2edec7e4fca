/**
 * Two-factor sign-in (issue 32 item 9, decision 0063): enrolment and its confirmation, recovery codes, turning it
 * off, the operator's reset, and the second step of a sign-in. Wrong codes count against the sign-in lockout of
 * the account and the client IP (throttle/rules.ts), and a pending sign-in takes only a few before the password is
 * asked again. Nothing here is held in one process: secrets, codes and pending sign-ins live in the database.
 */
import { hasRank, type Role } from '@tessera/common/roles';
import {
  TWO_FACTOR_MESSAGES as M,
  type OperatorTwoFactorStatus,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '@tessera/common/two-factor';
import { emailKey } from '@tessera/common/validation';
import type { Database, Executor } from '../../db/client';
import type { ClientInfo } from '../../http/client-info';
import { type AppError, BadRequest, Conflict, NotFound, Unauthorized } from '../../http/errors';
import type { Hub } from '../../socket/hub';
import { audit } from '../audit/record';
import type { Sealer } from '../keys/secrets';
import type { SessionService, StartedSession } from '../sessions/service';
import type { Limiter } from '../throttle/limiter';
import { refuseWhenOver, THROTTLE_RULES, type ThrottleRule } from '../throttle/rules';
import { verifyPassword } from '../users/passwords';
import { findUserById } from '../users/repo';
import { newChallengeId } from './challenge-cookie';
import {
  acceptStep,
  failChallenge,
  findChallenge,
  findTwoFactor,
  isTwoFactorOn,
  markEnabled,
  type PendingSignIn,
  recoveryCodesLeft,
  removeTwoFactor,
  replaceRecoveryCodes,
  saveChallenge,
  savePendingSecret,
  spendRecoveryCode,
  takeChallenge,
} from './repo';
import { codeKind, codeStep, newRecoveryCodes, newSecret, otpauthUri, qrDataUrl } from './totp';

export interface TwoFactorDeps {
  database: Database;
  sealer: Sealer;
  sessions: SessionService;
  /** Tells the browsers of sessions ended here (turning it on ends the account's other sessions). */
  hub: Pick<Hub, 'endSession'>;
  limiter: Limiter;
  /** REQUIRE_2FA_FOR_STAFF: System Administrators and Maintainers must have it on. */
  requiredForStaff: boolean;
}

/** Who asks, for the calls a signed-in person makes about their own account. */
export interface Owner {
  id: number;
  email: string;
  role: Role;
  ip: string;
  /** The session asking: the one kept when turning it on ends the others. */
  sessionId: number;
}

/** How a signed-in person proves it is them before turning it off or renewing the codes. */
export interface Proof {
  code?: string;
  password?: string;
}

const codeField = (message: string) => new BadRequest(message, [{ path: 'body.code', message }]);
const passwordField = (message: string) => new BadRequest(message, [{ path: 'body.password', message }]);

/** A code that did not check out (wrong, reused or misshapen): counted against the lockout, then `reply` is sent. */
class WrongCode extends Error {
  constructor(readonly reply: AppError) {
    super(reply.message);
  }
}

export function isStaff(role: Role): boolean {
  return hasRank(role, 'super');
}

export function createTwoFactorService(deps: TwoFactorDeps) {
  const { database, sealer, limiter } = deps;
  const { db } = database;

  async function secretOf(userId: number): Promise<{ secret: string; enabled: boolean } | null> {
    const row = await findTwoFactor(db, userId);
    if (!row) return null;
    const secret = await sealer.open(row.secretSealed);
    // Sealed under a key-encryption key this deployment no longer has: as good as no secret.
    return secret ? { secret, enabled: row.enabledAt !== null } : null;
  }

  /**
   * Checks a code against the user's secret or recovery codes, spending it in `tx` (a TOTP step recorded, a
   * recovery code marked used); throws WrongCode for a wrong, reused or misshapen code.
   */
  async function spendCode(tx: Executor, userId: number, secret: string, code: string): Promise<'totp' | 'recovery'> {
    const kind = codeKind(code);
    if (kind === null) throw new WrongCode(codeField(M.codeShape));
    if (kind === 'recovery') {
      const spent = await spendRecoveryCode(tx, userId, code);
      if (spent === 'used') throw new WrongCode(codeField(M.usedRecoveryCode));
      if (spent === 'wrong') throw new WrongCode(codeField(M.wrongCode));
      return kind;
    }
    const step = await codeStep(secret, code);
    if (step === null) throw new WrongCode(codeField(M.wrongCode));
    if (!(await acceptStep(tx, userId, step))) throw new WrongCode(codeField(M.reusedCode));
    return kind;
  }

  /** Proof by code or password for a signed-in owner, counted against their own throttle when wrong. */
  async function prove(owner: Owner, proof: Proof, work: (tx: Executor) => Promise<void>): Promise<void> {
    const keys: [string, ThrottleRule][] = [[`two-factor:account:${owner.id}`, THROTTLE_RULES.loginFailuresPerAccount]];
    await refuseWhenOver(limiter, keys);
    const stored = await secretOf(owner.id);
    if (!stored?.enabled) throw new Conflict(M.notOn);
    const failed = async (reply: AppError) => {
      await limiter.hit(keys[0]![0], keys[0]![1].windowMs);
      await audit(db, {
        action: 'two_factor.failure',
        actorId: owner.id,
        targetType: 'user',
        targetId: owner.id,
        ip: owner.ip,
      });
      return reply;
    };
    if (proof.code?.trim()) {
      try {
        await database.transaction(async (tx) => {
          await spendCode(tx, owner.id, stored.secret, proof.code!);
          await work(tx);
        });
      } catch (err) {
        if (err instanceof WrongCode) throw await failed(err.reply);
        throw err;
      }
      return;
    }
    if (!proof.password) throw new BadRequest(M.proofMissing, [{ path: 'body.code', message: M.proofMissing }]);
    const found = await findUserById(db, owner.id);
    const hash = found?.user.passwordHash;
    if (!hash || !(await verifyPassword(hash, proof.password))) throw await failed(passwordField(M.wrongPassword));
    await database.transaction(work);
  }

  async function issueRecoveryCodes(tx: Executor, userId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, userId, codes);
    return codes;
  }

  return {
    /** Whether this user must turn it on before anything else (REQUIRE_2FA_FOR_STAFF). */
    async mustEnrol(user: { id: number; role: Role }): Promise<boolean> {
      return deps.requiredForStaff && isStaff(user.role) && !(await isTwoFactorOn(db, user.id));
    },

    async isOn(userId: number): Promise<boolean> {
      return isTwoFactorOn(db, userId);
    },

    async status(user: { id: number; role: Role }): Promise<TwoFactorStatus> {
      const row = await findTwoFactor(db, user.id);
      const enabled = Boolean(row?.enabledAt);
      return {
        enabled,
        enabledAt: row?.enabledAt?.toISOString() ?? null,
        recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, user.id) : 0,
        required: deps.requiredForStaff && isStaff(user.role),
      };
    },

    /** What an operator (root) reads of someone's two-factor sign-in on their page: on or off, and since when. */
    async operatorStatus(userId: number): Promise<OperatorTwoFactorStatus> {
      if (!(await findUserById(db, userId))) throw new NotFound(M.noSuchUser);
      const row = await findTwoFactor(db, userId);
      return { enabled: Boolean(row?.enabledAt), enabledAt: row?.enabledAt?.toISOString() ?? null };
    },

    /** A new secret waiting for its first code; the only reply that ever carries it. */
    async enrol(owner: Owner): Promise<TwoFactorEnrolment> {
      const secret = newSecret();
      if (!(await savePendingSecret(db, owner.id, await sealer.seal(secret)))) throw new Conflict(M.alreadyOn);
      const uri = otpauthUri(secret, owner.email);
      return { secret, uri, qrCode: await qrDataUrl(uri) };
    },

    /**
     * The first code turns it on; the reply's recovery codes are shown once and stored only as hashes. The account's
     * other sessions end with it (a thief's session signed in with a stolen password must not outlive the cure), and
     * their browsers hear of it once it has committed.
     */
    async confirm(owner: Owner, code: string): Promise<string[]> {
      const stored = await secretOf(owner.id);
      if (stored?.enabled) throw new Conflict(M.alreadyOn);
      if (!stored) throw new BadRequest(M.noEnrolment);
      try {
        const { codes, ended } = await database.transaction(async (tx) => {
          if (codeKind(code) !== 'totp') throw new WrongCode(codeField(M.wrongCode));
          await spendCode(tx, owner.id, stored.secret, code);
          if (!(await markEnabled(tx, owner.id))) throw new Conflict(M.alreadyOn);
          const codes = await issueRecoveryCodes(tx, owner.id);
          await audit(tx, {
            action: 'two_factor.enable',
            actorId: owner.id,
            targetType: 'user',
            targetId: owner.id,
            ip: owner.ip,
          });
          return { codes, ended: await deps.sessions.endOthers(owner.id, owner.sessionId, tx) };
        });
        // The codes are shown once: a browser not told of its ended session must not cost the user their codes.
        await Promise.allSettled(ended.map((id) => deps.hub.endSession(id)));
        return codes;
      } catch (err) {
        if (err instanceof WrongCode) throw err.reply;
        throw err;
      }
    },

    async disable(owner: Owner, proof: Proof): Promise<void> {
      if (deps.requiredForStaff && isStaff(owner.role)) throw new Conflict(M.requiredCannotDisable);
      await prove(owner, proof, async (tx) => {
        await removeTwoFactor(tx, owner.id);
        await audit(tx, {
          action: 'two_factor.disable',
          actorId: owner.id,
          targetType: 'user',
          targetId: owner.id,
          ip: owner.ip,
        });
      });
    },

    async renewRecoveryCodes(owner: Owner, proof: Proof): Promise<string[]> {
      let codes: string[] = [];
      await prove(owner, proof, async (tx) => {
        codes = await issueRecoveryCodes(tx, owner.id);
        await audit(tx, {
          action: 'two_factor.recovery_codes',
          actorId: owner.id,
          targetType: 'user',
          targetId: owner.id,
          ip: owner.ip,
        });
      });
      return codes;
    },

    /** An operator turns it off for someone who lost their device (they sign in with the password alone). */
    async reset(operator: { id: number; impersonatorId: number | null; ip: string }, userId: number): Promise<void> {
      await database.transaction(async (tx) => {
        if (!(await removeTwoFactor(tx, userId))) throw new NotFound(M.resetNotOn);
        await audit(tx, {
          action: 'two_factor.reset',
          actorId: operator.id,
          impersonatorId: operator.impersonatorId,
          targetType: 'user',
          targetId: userId,
          ip: operator.ip,
        });
      });
    },

    /** After the first factor: a sign-in waiting for its code; the id goes in the browser's cookie. */
    async challenge(pending: PendingSignIn): Promise<string> {
      const id = newChallengeId();
      await saveChallenge(db, id, pending);
      return id;
    },

    /**
     * The second step: the code (or a recovery code) for the pending sign-in behind the cookie id. Success takes
     * the pending sign-in, spends the code and starts the session in one transaction.
     */
    async complete(
      challengeId: string | null,
      code: string,
      visitor: ClientInfo,
    ): Promise<{ started: StartedSession; returnTo: string | null }> {
      const pending = challengeId ? await findChallenge(db, challengeId) : null;
      if (!challengeId || !pending) throw new Unauthorized(M.expired);
      const found = await findUserById(db, pending.userId);
      const stored = found?.user.isActive ? await secretOf(pending.userId) : null;
      if (!found || !stored?.enabled) throw new Unauthorized(M.expired);
      const keys: [string, ThrottleRule][] = [
        [`login:account:${emailKey(found.user.email)}`, THROTTLE_RULES.loginFailuresPerAccount],
        [`login:ip:${visitor.ip}`, THROTTLE_RULES.loginFailuresPerIp],
      ];
      await refuseWhenOver(limiter, keys);
      try {
        const started = await database.transaction(async (tx) => {
          if (!(await takeChallenge(tx, challengeId))) throw new Unauthorized(M.expired);
          const kind = await spendCode(tx, pending.userId, stored.secret, code);
          const session = await deps.sessions.start(
            { user: found.user, organizationName: found.organizationName, remember: pending.remember, ...visitor },
            tx,
          );
          await audit(tx, {
            action: 'login.success',
            actorId: found.user.id,
            targetType: 'user',
            targetId: found.user.id,
            ip: visitor.ip,
            detail: { secondFactor: kind, ...(pending.provider && { provider: pending.provider }) },
          });
          if (kind === 'recovery') {
            await audit(tx, {
              action: 'two_factor.recovery_used',
              actorId: found.user.id,
              targetType: 'user',
              targetId: found.user.id,
              ip: visitor.ip,
            });
          }
          return session;
        });
        await limiter.reset(keys[0]![0]);
        return { started, returnTo: pending.returnTo };
      } catch (err) {
        if (!(err instanceof WrongCode)) throw err;
        for (const [key, rule] of keys) await limiter.hit(key, rule.windowMs);
        await failChallenge(db, challengeId);
        await audit(db, { action: 'two_factor.failure', targetType: 'user', targetId: found.user.id, ip: visitor.ip });
        throw err.reply;
      }
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
