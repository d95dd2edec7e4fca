/**
 * Spec §6 rules on users, enforced on the server (decision 0007): edit self or a strictly lower rank, delete a
 * strictly lower rank, never give a role at or above one's own, and stay inside one's organization unless super.
 * Changing someone's role, deactivating, moving or deleting them ends all their sessions.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import type { User } from '@tessera/common/entities';
import type { UserEntry } from '@tessera/common/resources';
import { assignableRoles, canDeleteUser, canEditUser, hasRank, isRole, type Role } from '@tessera/common/roles';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { identities, users } from '../../db/schema';
import { Conflict, Forbidden, NotFound } from '../../http/errors';
import { actionLink, type Mailer, setPassword } from '../../mail';
import type { Hub } from '../../socket/hub';
import { emailDomain } from '../accounts/domain';
import { audit } from '../audit/record';
import { actsAcrossOrganizations, inReach, NOT_FOUND } from '../console/access';
import { issueToken } from '../email-tokens/service';
import { findOrganization, lockOrganization } from '../organizations/repo';
import type { SessionService } from '../sessions/service';
import { toUserEntry } from './entry';
import { findUserByEmail, findUserById, insertUser, lockUser, type UserRow } from './repo';
import type { UserPatch } from './schemas';

export const USER_MESSAGES = {
  editRefused: 'You may only edit yourself or users with a lower role than yours.',
  deleteRefused: 'You may only delete users with a lower role than yours.',
  roleTooHigh: 'You may only give roles below your own.',
  ownStanding: 'You cannot change your own role, access or organization.',
  moveRefused: 'Only a system administrator can move a user to another organization.',
  noOrganization: 'Choose an organization for the new user.',
  noDomain: "Ask a System Administrator to set your organization's e-mail domain before adding people.",
  outsideDomain: (domain: string) => `You may add people with e-mail addresses at ${domain} only.`,
} as const;

export interface ManageDeps {
  database: Database;
  sessions: SessionService;
  hub: Hub;
  mailer: Mailer;
  publicUrl: URL;
}

interface Who {
  user: User;
  ip: string;
}

function roleOf(row: UserRow): Role {
  return isRole(row.role) ? row.role : 'user';
}

/** The target when it exists and the actor can see it (self, same organization, or super+); else 404. */
async function reachable(db: Executor, actor: User, id: number) {
  const found = await findUserById(db, id);
  if (!found || (found.user.id !== actor.id && !inReach(actor, found.user.organizationId))) {
    throw new NotFound(NOT_FOUND.user);
  }
  return found;
}

export function createUserManagement(deps: ManageDeps) {
  const { database } = deps;

  /** Ends every session of a user, or acting as them; their browsers sign out once the change has committed. */
  async function signOutEverywhere(tx: Executor, userId: number): Promise<number[]> {
    return deps.sessions.endInvolving(userId, tx);
  }

  async function announce(ended: number[], entry: UserEntry): Promise<void> {
    await Promise.all(ended.map((id) => deps.hub.endSession(id)));
    await deps.hub.userChanged(entry.id); // their API keys are checked afresh
    if (entry.organizationId !== null) {
      await deps.hub.publish(`organization:${entry.organizationId}`, { users: { [entry.id]: entry } });
    }
  }

  return {
    async get(actor: User, id: number): Promise<UserEntry> {
      const found = await reachable(database.db, actor, id);
      return toUserEntry(found.user, found.organizationName);
    },

    async create(
      { user: actor, ip }: Who,
      input: { email: string; name: string; title?: string; role: string; organizationId?: number | null },
    ): Promise<UserEntry> {
      if (!isRole(input.role) || !assignableRoles(actor.role).includes(input.role)) {
        throw new Forbidden(USER_MESSAGES.roleTooHigh);
      }
      const organizationId = input.organizationId === undefined ? actor.organizationId : input.organizationId;
      if (organizationId === null && !actsAcrossOrganizations(actor)) throw new Forbidden(USER_MESSAGES.noOrganization);
      if (organizationId !== null && !inReach(actor, organizationId)) throw new NotFound(NOT_FOUND.organization);
      const { entry, token } = await database.transaction(async (tx) => {
        if (organizationId !== null) await lockOrganization(tx, organizationId, 'share');
        const organization = organizationId === null ? null : await findOrganization(tx, organizationId);
        if (organizationId !== null && !organization) throw new NotFound(NOT_FOUND.organization);
        if (!actsAcrossOrganizations(actor)) {
          // An administrator adds people of their organization's own domain only: an address elsewhere would be
          // claimed before its owner could sign up or join their real organization.
          const domain = organization?.emailDomain;
          if (!domain) throw new Forbidden(USER_MESSAGES.noDomain);
          if (emailDomain(input.email) !== domain.toLowerCase())
            throw new Forbidden(USER_MESSAGES.outsideDomain(domain));
        }
        if (await findUserByEmail(tx, input.email)) throw new Conflict(ACCOUNT_MESSAGES.existingUser(input.email));
        const row = await insertUser(tx, {
          email: input.email,
          name: input.name,
          title: input.title ?? '',
          role: input.role,
          organizationId,
        });
        await audit(tx, {
          action: 'user.create',
          actorId: actor.id,
          impersonatorId: actor.impersonator,
          targetType: 'user',
          targetId: row.id,
          ip,
          detail: { role: row.role, organizationId },
        });
        return { entry: toUserEntry(row, organization?.name ?? null), token: await issueToken(tx, row.id, 'set') };
      });
      // Off the request path: the mail queue retries on its own.
      deps.mailer.send(
        setPassword({ to: entry.email, name: entry.name, link: actionLink(deps.publicUrl, '/password/set', token) }),
      );
      await announce([], entry);
      return entry;
    },

    /** Applies a checked patch; `image` is '' to clear, or the path of a picture stored by the upload route. */
    async update(
      { user: actor, ip }: Who,
      id: number,
      patch: Omit<UserPatch, 'image'> & { image?: string },
    ): Promise<UserEntry> {
      const { entry, ended } = await database.transaction(async (tx) => {
        await lockUser(tx, id);
        const found = await reachable(tx, actor, id);
        const target = { id: found.user.id, role: roleOf(found.user) };
        if (!canEditUser(actor, target)) throw new Forbidden(USER_MESSAGES.editRefused);
        const standing = {
          role: patch.role !== undefined && patch.role !== found.user.role,
          isActive: patch.isActive !== undefined && patch.isActive !== found.user.isActive,
          organizationId: patch.organizationId !== undefined && patch.organizationId !== found.user.organizationId,
          allowedRecordTypes:
            patch.allowedRecordTypes !== undefined &&
            patch.allowedRecordTypes.join(',') !== found.user.allowedRecordTypes.join(','),
        };
        const changesStanding = Object.values(standing).some(Boolean);
        // Only someone strictly above the target changes what the target may do.
        if (changesStanding && actor.id === target.id) throw new Forbidden(USER_MESSAGES.ownStanding);
        if (standing.role && !assignableRoles(actor.role).includes(patch.role as Role)) {
          throw new Forbidden(USER_MESSAGES.roleTooHigh);
        }
        if (standing.organizationId) {
          if (!hasRank(actor.role, 'super')) throw new Forbidden(USER_MESSAGES.moveRefused);
          if (patch.organizationId && !(await findOrganization(tx, patch.organizationId))) {
            throw new NotFound(NOT_FOUND.organization);
          }
        }
        const [row] = await tx
          .update(users)
          .set({
            name: patch.name,
            title: patch.title,
            image: patch.image,
            role: standing.role ? patch.role : undefined,
            isActive: standing.isActive ? patch.isActive : undefined,
            organizationId: standing.organizationId ? patch.organizationId : undefined,
            allowedRecordTypes: standing.allowedRecordTypes ? patch.allowedRecordTypes : undefined,
            updatedAt: new Date(),
          })
          .where(eq(users.id, id))
          .returning();
        const who = { actorId: actor.id, impersonatorId: actor.impersonator, targetType: 'user', targetId: id, ip };
        const fields = Object.entries(patch).flatMap(([k, v]) => (v === undefined ? [] : [k]));
        await audit(tx, { ...who, action: 'user.update', detail: { fields } });
        if (standing.role) {
          await audit(tx, { ...who, action: 'role.change', detail: { from: found.user.role, to: patch.role } });
        }
        // A changed role, access, organization or record-type limit takes effect at the next sign-in, with a new session.
        const endedIds = changesStanding ? await signOutEverywhere(tx, id) : [];
        const organizationName =
          standing.organizationId && row!.organizationId !== null
            ? ((await findOrganization(tx, row!.organizationId))?.name ?? null)
            : standing.organizationId
              ? null
              : found.organizationName;
        return { entry: toUserEntry(row!, organizationName), ended: endedIds };
      });
      await announce(ended, entry);
      return entry;
    },

    async remove({ user: actor, ip }: Who, id: number): Promise<Date> {
      const { at, ended, entry } = await database.transaction(async (tx) => {
        await lockUser(tx, id);
        const found = await reachable(tx, actor, id);
        if (!canDeleteUser(actor, { id, role: roleOf(found.user) })) throw new Forbidden(USER_MESSAGES.deleteRefused);
        const [row] = await tx
          .update(users)
          .set({ deletedAt: new Date(), isActive: false, updatedAt: new Date() })
          .where(eq(users.id, id))
          .returning();
        // Outside sign-ins of a deleted account may sign up afresh.
        await tx.delete(identities).where(eq(identities.userId, id));
        await audit(tx, {
          action: 'user.delete',
          actorId: actor.id,
          impersonatorId: actor.impersonator,
          targetType: 'user',
          targetId: id,
          ip,
        });
        return {
          at: row!.deletedAt!,
          ended: await signOutEverywhere(tx, id),
          entry: { ...toUserEntry(row!, found.organizationName), deletedAt: row!.deletedAt!.toISOString() },
        };
      });
      await announce(ended, entry);
      return at;
    },
  };
}

export type UserManagement = ReturnType<typeof createUserManagement>;
