/**
 * An organization (spec §2 resource route, decision 0007): view with its users, create, edit, or delete after
 * a confirmation; a comma-separated list shows the organizations named. Who may do what follows common/roles.ts; the server enforces the same.
 */

import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canEditOrganization, canManageOrganizations } from '@tessera/common/roles';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { ResourceList } from '../resource-list';
import { yesNo } from '../yes-no';
import { OrganizationEditor } from './organization-editor';
import { OrganizationView } from './organization-view';

export default function OrganizationPage({ resource }: PageProps) {
  const self = useStore((s) => s.self);
  if (!resource) return <Navigate to="/error/404" replace />;
  const { mode, ids } = resource;
  if (mode === 'create') {
    return canManageOrganizations(self.role) ? <OrganizationEditor /> : <Navigate to="/error/403" replace />;
  }
  if (mode === 'view' && ids.length > 1) {
    return (
      <ResourceList<Organization>
        plural="Organizations"
        area="organizations"
        ids={ids}
        path={`${RESOURCE_PATHS.organizations}/${ids.join(',')}`}
        href={(o) => `/organizations/${o.id}`}
        name={(o) => o.name}
        columns={[
          { label: 'E-mail domain', value: (o) => o.emailDomain ?? 'None' },
          { label: 'Accepts users', value: (o) => yesNo(o.acceptUsers) },
        ]}
      />
    );
  }
  const id = ids[0];
  if (mode === 'publish' || id === undefined || ids.length !== 1) return <Navigate to="/error/404" replace />;
  if (mode === 'edit') {
    return canEditOrganization(self, id) ? <OrganizationEditor id={id} /> : <Navigate to="/error/403" replace />;
  }
  if (mode === 'delete' && !canManageOrganizations(self.role)) return <Navigate to="/error/403" replace />;
  return <OrganizationView id={id} deleting={mode === 'delete'} />;
}
