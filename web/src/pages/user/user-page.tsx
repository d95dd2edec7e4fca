/**
 * A user (spec §2 resource route, decision 0007): view with the actions common/roles.ts allows the signed-in
 * user (edit, delete, impersonate), the edit form, or deletion after a confirmation; /users/add adds one (as their
 * organization's page does); a comma-separated list shows each user in turn (issue 32 item 8).
 */
import { RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { ROLE_LABEL } from '@tessera/common/roles';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { ResourceList } from '../resource-list';
import { UserCreate } from './user-create';
import { UserEditor } from './user-editor';
import { UserView } from './user-view';

export default function UserPage({ resource }: PageProps) {
  if (resource?.mode === 'create' && resource.ids.length === 0) return <UserCreate />;
  if (resource?.mode === 'view' && resource.ids.length > 1) {
    return (
      <ResourceList<UserEntry>
        plural="Users"
        area="users"
        ids={resource.ids}
        path={`${RESOURCE_PATHS.users}/${resource.ids.join(',')}`}
        href={(u) => `/users/${u.id}`}
        name={(u) => u.name || u.email}
        columns={[
          { label: 'E-mail', value: (u) => u.email },
          { label: 'Role', value: (u) => ROLE_LABEL[u.role] },
          { label: 'Organization', value: (u) => u.organizationName || 'None' },
        ]}
      />
    );
  }
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
