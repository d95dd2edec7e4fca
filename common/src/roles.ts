/** Spec §4 and §6: ranks, labels and the permission rules stated for the client, enforced on the server too. */
export const ROLES = ['anonymous', 'resetter', 'signer', 'user', 'admin', 'super', 'root'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_RANK: Record<Role, number> = {
  anonymous: 0,
  resetter: 1,
  signer: 2,
  user: 3,
  admin: 4,
  super: 5,
  root: 6,
};

export const ROLE_LABEL: Record<Role, string> = {
  anonymous: 'Anonymous',
  resetter: 'Password Resetter',
  signer: 'Terms Signer',
  user: 'Organization User',
  admin: 'Organization Administrator',
  super: 'System Administrator',
  root: 'System Maintainer',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function rank(role: Role): number {
  return ROLE_RANK[role];
}

/** True when `role` is at least `minimum`, compared numerically (spec §6). */
export function hasRank(role: Role, minimum: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minimum];
}

interface Actor {
  id: number;
  role: Role;
}

/** Impersonate: super or higher, and strictly above the target's role. */
export function canImpersonate(actor: Actor, target: Actor): boolean {
  return actor.id !== target.id && hasRank(actor.role, 'super') && ROLE_RANK[actor.role] > ROLE_RANK[target.role];
}

/** Delete user: strictly higher rank than the target. */
export function canDeleteUser(actor: Actor, target: Actor): boolean {
  return ROLE_RANK[actor.role] > ROLE_RANK[target.role];
}

/** Edit user: self, or strictly higher rank. */
export function canEditUser(actor: Actor, target: Actor): boolean {
  return actor.id === target.id || ROLE_RANK[actor.role] > ROLE_RANK[target.role];
}

/** Roles an editor may assign: only ranks below their own, and never the half-signed-in states. */
export function assignableRoles(editor: Role): Role[] {
  return ROLES.filter((r) => ROLE_RANK[r] >= ROLE_RANK.user && ROLE_RANK[r] < ROLE_RANK[editor]);
}

/** Templates: super or higher edits all; others only when their id or organization id is in adminIds. */
export function canEditTemplate(
  actor: Actor & { organizationId: number | null },
  template: { adminIds: number[] },
): boolean {
  if (hasRank(actor.role, 'super')) return true;
  return (
    template.adminIds.includes(actor.id) ||
    (actor.organizationId !== null && template.adminIds.includes(actor.organizationId))
  );
}

interface Member extends Actor {
  organizationId: number | null;
}

/** Organizations (decision 0007): super or higher create and delete them, and change their e-mail domain. */
export function canManageOrganizations(role: Role): boolean {
  return hasRank(role, 'super');
}

/** Edit an organization: super or higher, or an administrator of that organization. */
export function canEditOrganization(actor: Member, organizationId: number): boolean {
  return hasRank(actor.role, 'super') || (hasRank(actor.role, 'admin') && actor.organizationId === organizationId);
}

/** Add a user to an organization: admin or higher in their own organization, super or higher anywhere. */
export function canAddUser(actor: Member, organizationId: number): boolean {
  return canEditOrganization(actor, organizationId);
}

/** End a console session: one's own, or (super or higher) a session of a user strictly below. */
export function canEndSession(actor: Actor, owner: Actor): boolean {
  return actor.id === owner.id || (hasRank(actor.role, 'super') && ROLE_RANK[actor.role] > ROLE_RANK[owner.role]);
}
