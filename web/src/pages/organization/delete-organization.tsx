/** Deleting an organization (decision 0007): confirmed in the dialog area; a 409 while it has users is alerted. */
import type { Organization } from '@tessera/common/resources';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { api } from '../../lib/api';
import { confirmInDialog } from '../confirm-dialog';

export function askToDeleteOrganization(
  organization: Pick<Organization, 'id' | 'name'>,
  { onDeleted, onCancel }: { onDeleted?: () => void; onCancel?: () => void } = {},
): void {
  confirmInDialog({
    title: 'Delete Organization',
    text: (
      <>
        Delete the organization <strong>{organization.name}</strong>? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete',
    onConfirm: async () => {
      await api.del(`${RESOURCE_PATHS.organizations}/${organization.id}`);
      onDeleted?.();
    },
    onCancel,
  });
}
