/**
 * A user (spec §2 resource route, decision 0007): view with the actions common/roles.ts allows the signed-in
 * user (edit, delete, impersonate), the edit form, or deletion after a confirmation. Users are added from their
 * organization's page.
 */
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { UserEditor } from './user-editor';
import { UserView } from './user-view';

export default function UserPage({ resource }: PageProps) {
  const id = resource?.ids[0];
  if (!resource || id === undefined || resource.ids.length !== 1) return <Navigate to="/error/404" replace />;
  switch (resource.mode) {
    case 'view':
      return <UserView id={id} />;
    case 'delete':
      return <UserView id={id} deleting />;
    case 'edit':
      return <UserEditor id={id} />;
    default:
      return <Navigate to="/error/404" replace />;
  }
}
