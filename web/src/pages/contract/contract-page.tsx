/**
 * Contracts (issue 19; spec §2 resource route): /contracts/{id} shows one to its organization's administrators
 * and super+; /contracts/add (which asks the organization), /contracts/add/{organizationId}, /contracts/edit/{id} and /contracts/delete/{id} are super+'s, as
 * the server enforces. The organization page lists an organization's contracts.
 */
import type { Contract } from '@tessera/common/contracts';
import { formatDay } from '@tessera/common/dates';
import { hasRank } from '@tessera/common/roles';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { ResourceList } from '../resource-list';
import { ContractCreate } from './contract-create';
import { ContractEditor } from './contract-editor';
import { ContractView } from './contract-view';

export default function ContractPage({ resource }: PageProps) {
  const role = useStore((s) => s.self.role);
  if (resource?.mode === 'view' && resource.ids.length > 1) {
    return (
      <ResourceList<Contract>
        plural="Contracts"
        area="contracts"
        ids={resource.ids}
        path={`/v2/contracts/${resource.ids.join(',')}`}
        href={(c) => `/contracts/${c.id}`}
        name={(c) => c.name || `Contract ${c.id}`}
        columns={[
          { label: 'Status', value: (c) => c.status },
          { label: 'Starts', value: (c) => formatDay(c.startsAt) },
          { label: 'Ends', value: (c) => formatDay(c.endsAt) },
        ]}
      />
    );
  }
  if (resource?.mode === 'create' && resource.ids.length === 0) {
    return hasRank(role, 'super') ? <ContractCreate /> : <Navigate to="/error/403" replace />;
  }
  const id = resource?.ids[0];
  if (!resource || id === undefined || resource.ids.length !== 1 || resource.mode === 'publish') {
    return <Navigate to="/error/404" replace />;
  }
  if (resource.mode === 'view') return <ContractView key={id} id={id} />;
  if (!hasRank(role, 'super')) return <Navigate to="/error/403" replace />;
  if (resource.mode === 'create') return <ContractEditor key={`add-${id}`} organizationId={id} />;
  if (resource.mode === 'edit') return <ContractEditor key={id} id={id} />;
  return <ContractView key={id} id={id} deleting />;
}
