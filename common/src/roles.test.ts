import { describe, expect, it } from 'vitest';
import {
  assignableRoles,
  canAddUser,
  canDeleteUser,
  canEditOrganization,
  canEditTemplate,
  canEditUser,
  canEndSession,
  canImpersonate,
  canManageOrganizations,
  hasRank,
  ROLE_LABEL,
  ROLE_RANK,
  ROLES,
} from './roles';

describe('roles (spec §4, §6)', () => {
  it('ranks anonymous 0 through root 6, with the spec labels', () => {
    expect(ROLES.map((r) => ROLE_RANK[r])).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ROLE_LABEL).toEqual({
      anonymous: 'Anonymous',
      resetter: 'Password Resetter',
      signer: 'Terms Signer',
      user: 'Organization User',
      admin: 'Organization Administrator',
      super: 'System Administrator',
      root: 'System Maintainer',
    });
  });

  it('compares ranks numerically', () => {
    expect(hasRank('admin', 'user')).toBe(true);
    expect(hasRank('user', 'user')).toBe(true);
    expect(hasRank('signer', 'user')).toBe(false);
  });

  it('impersonate: super or higher, strictly above the target, never oneself', () => {
    expect(canImpersonate({ id: 1, role: 'super' }, { id: 2, role: 'admin' })).toBe(true);
    expect(canImpersonate({ id: 1, role: 'super' }, { id: 2, role: 'super' })).toBe(false);
    expect(canImpersonate({ id: 1, role: 'admin' }, { id: 2, role: 'user' })).toBe(false);
    expect(canImpersonate({ id: 1, role: 'root' }, { id: 1, role: 'root' })).toBe(false);
  });

  it('delete needs a strictly higher rank; edit is self or strictly higher', () => {
    expect(canDeleteUser({ id: 1, role: 'admin' }, { id: 2, role: 'user' })).toBe(true);
    expect(canDeleteUser({ id: 1, role: 'admin' }, { id: 2, role: 'admin' })).toBe(false);
    expect(canEditUser({ id: 1, role: 'user' }, { id: 1, role: 'user' })).toBe(true);
    expect(canEditUser({ id: 1, role: 'user' }, { id: 2, role: 'user' })).toBe(false);
    expect(canEditUser({ id: 1, role: 'admin' }, { id: 2, role: 'user' })).toBe(true);
  });

  it('an editor assigns only working roles below their own', () => {
    expect(assignableRoles('admin')).toEqual(['user']);
    expect(assignableRoles('root')).toEqual(['user', 'admin', 'super']);
    expect(assignableRoles('user')).toEqual([]);
  });

  it('templates: super+ edit all; others by their id or organization id in adminIds', () => {
    const template = { adminIds: [10, 500] };
    expect(canEditTemplate({ id: 1, role: 'super', organizationId: null }, template)).toBe(true);
    expect(canEditTemplate({ id: 10, role: 'user', organizationId: 3 }, template)).toBe(true);
    expect(canEditTemplate({ id: 11, role: 'admin', organizationId: 500 }, template)).toBe(true);
    expect(canEditTemplate({ id: 11, role: 'admin', organizationId: 3 }, template)).toBe(false);
  });

  it('organizations: super+ manage all; an admin edits and adds users to their own only', () => {
    expect(['user', 'admin', 'super', 'root'].map((r) => canManageOrganizations(r as 'user'))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const admin = { id: 1, role: 'admin' as const, organizationId: 3 };
    expect([canEditOrganization(admin, 3), canEditOrganization(admin, 4)]).toEqual([true, false]);
    expect(canEditOrganization({ ...admin, role: 'user' }, 3)).toBe(false);
    expect(canEditOrganization({ id: 2, role: 'super', organizationId: null }, 4)).toBe(true);
    expect([canAddUser(admin, 3), canAddUser(admin, 4), canAddUser({ ...admin, role: 'user' }, 3)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("sessions: one's own always; others' only for super+ strictly above their owner", () => {
    const superUser = { id: 1, role: 'super' as const };
    expect(canEndSession(superUser, superUser)).toBe(true);
    expect(canEndSession(superUser, { id: 2, role: 'admin' })).toBe(true);
    expect(canEndSession(superUser, { id: 3, role: 'super' })).toBe(false);
    expect(canEndSession({ id: 4, role: 'admin' }, { id: 5, role: 'user' })).toBe(false);
    expect(canEndSession({ id: 6, role: 'root' }, { id: 3, role: 'super' })).toBe(true);
  });
});
