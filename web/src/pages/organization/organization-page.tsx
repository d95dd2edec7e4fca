/**
 * An organization (spec §2 resource route, decision 0007): view with its users, create, edit, or delete after
 * a confirmation. Who may do what follows common/roles.ts; the server enforces the same.
 */
import { canEditOrganization, canManageOrganizations } from '@tessera/common/roles';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { OrganizationEditor } from './organization-editor';
import { OrganizationView } from './organization-view';

export default function OrganizationPage({ resource }: PageProps) {
  const self = useStore((s) => s.self);
  if (!resource) return <Navigate to="/error/404" replace />;
  const { mode, ids } = resource;
  if (mode === 'create') {
    return canManageOrganizations(self.role) ? <OrganizationEditor /> : <Navigate to="/error/403" replace />;
  }
  const id = ids[0];
  if (mode === 'publish' || id === undefined || ids.length !== 1) return <Navigate to="/error/404" replace />;
  if (mode === 'edit') {
    return canEditOrganization(self, id) ? <OrganizationEditor id={id} /> : <Navigate to="/error/403" replace />;
  }
  if (mode === 'delete' && !canManageOrganizations(self.role)) return <Navigate to="/error/403" replace />;
  return <OrganizationView id={id} deleting={mode === 'delete'} />;
}
