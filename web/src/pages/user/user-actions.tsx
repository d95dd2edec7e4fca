/** What can be done to a user from their page: delete after a confirmation, and impersonate. */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';
import { confirmInDialog } from '../confirm-dialog';

/** Where a user's page leads back to: their organization. */
export function organizationPath(user: Pick<UserEntry, 'organizationId'>): string {
  return user.organizationId === null ? '/organizations' : `/organizations/${user.organizationId}`;
}

export function askToDeleteUser(user: UserEntry, onCancel?: () => void): void {
  confirmInDialog({
    title: 'Delete User',
    text: (
      <>
        Delete the user <strong>{user.name || user.email}</strong>? Their sessions end at once. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete',
    onConfirm: async () => {
      await api.del(`${RESOURCE_PATHS.users}/${user.id}`);
      navigate(organizationPath(user));
    },
    onCancel,
  });
}

/** Spec §4: the server stores the real user as impersonator and switches; the browser then follows its cookie. */
export async function impersonate(id: number): Promise<void> {
  const reply = await api.put<{ location: string }>(AUTH_PATHS.impersonate(id));
  refreshUser();
  navigate(reply.location || '/');
}
