/**
 * One contract (/contracts/{id}) for its organization's administrators and super+: its terms, whether it is the
 * one in force, this month's spend against its limit, and its history; Edit and Delete for super+. At
 * /contracts/delete/{id} the confirmation opens once the contract is known.
 */
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import {
  CONTRACT_STATUS_LABELS,
  type Contract,
  type ContractChange,
  type ContractSpend,
  contractInForce,
} from '@tessera/common/contracts';
import { formatDay } from '@tessera/common/dates';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { hasRank } from '@tessera/common/roles';
import { useEffect, useMemo, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { api } from '../../lib/api';
import { useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import { ContractHistory, shown } from './contract-history';
import { ContractSpendBar } from './contract-spend';

type Areas = {
  contracts?: Record<string, Contract>;
  contractSpend?: Record<string, ContractSpend>;
  contractChanges?: Record<string, ContractChange>;
};

export const contractTitle = (c: Pick<Contract, 'id' | 'name'>) => c.name || `Contract ${c.id}`;

export function askToDeleteContract(contract: Contract, onCancel?: () => void) {
  confirmInDialog({
    title: 'Delete Contract',
    text: `Delete ${contractTitle(contract)}? If it is in force, the organization's calls are priced by its other contracts, or refused without one, from now on. Its history is kept.`,
    confirmLabel: 'Delete',
    onConfirm: async () => {
      await api.del(`/v2/contracts/${contract.id}`);
      navigate(`/organizations/${contract.organizationId}#contracts`, { replace: true });
    },
    onCancel,
  });
}

export function ContractView({ id, deleting = false }: { id: number; deleting?: boolean }) {
  const self = useStore((s) => s.self);
  const areas = useStore((s) => s.areas) as Areas;
  const contract = areas.contracts?.[id];
  const spend = areas.contractSpend?.[id];
  const organization = useItem<Organization>('organizations', contract?.organizationId);
  const asked = useRef(false);
  const staff = hasRank(self.role, 'super');

  useFetch(`/v2/contracts/${id}`);
  const orgId = contract?.organizationId;
  useFetch(orgId === undefined ? null : `${RESOURCE_PATHS.organizations}/${orgId}`);
  useFetch(orgId === undefined ? null : '/v2/contracts', orgId === undefined ? undefined : { organizationId: orgId });

  const changes = useMemo(
    () => Object.values(areas.contractChanges ?? {}).filter((c) => c.contractId === id),
    [areas.contractChanges, id],
  );
  const inForce = useMemo(
    () =>
      contractInForce(
        Object.values(areas.contracts ?? {}).filter((c) => c.organizationId === orgId),
        Date.now(),
      ),
    [areas.contracts, orgId],
  );

  useEffect(() => {
    if (!deleting || !contract || asked.current) return;
    asked.current = true;
    askToDeleteContract(contract, () => navigate(`/contracts/${id}`, { replace: true }));
  }, [deleting, contract, id]);

  if (!contract) return <CircularProgress aria-label="Loading the contract" />;
  const groups = Object.keys(contract.groupPrices).length;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{contractTitle(contract)}</PageHeading>
        {staff && (
          <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
            <Button component={RouterLink} to={`/contracts/edit/${id}`} startIcon={<EditIcon />}>
              Edit
            </Button>
            <Button color="error" startIcon={<DeleteIcon />} onClick={() => askToDeleteContract(contract)}>
              Delete
            </Button>
          </Stack>
        )}
      </Box>
      <DetailList
        items={[
          [
            'Organization',
            <Link key="org" component={RouterLink} to={`/organizations/${contract.organizationId}#contracts`}>
              {organization?.name ?? `Organization ${contract.organizationId}`}
            </Link>,
          ],
          [
            'Status',
            <Stack key="status" direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
              <span>{CONTRACT_STATUS_LABELS[contract.status]}</span>
              {inForce?.id === id && <Chip size="small" color="success" label="In force" data-testid="in-force" />}
            </Stack>,
          ],
          ['Term', `${formatDay(contract.startsAt)} to ${formatDay(contract.endsAt)} (UTC)`],
          ['Price per request', shown('pricePerRequest', contract.pricePerRequest)],
          ['Price per identity returned', shown('pricePerIdentity', contract.pricePerIdentity)],
          ['Prices per record group', groups ? shown('groupPrices', contract.groupPrices) : 'None'],
          ['Monthly limit', contract.monthlyLimit === null ? 'No limit' : shown('monthlyLimit', contract.monthlyLimit)],
          ['Rate limit', contract.rateLimit === null ? 'No limit' : shown('rateLimit', contract.rateLimit)],
          ['Price per change event', shown('pricePerEvent', contract.pricePerEvent)],
          [
            'Subscription limit',
            contract.subscriptionLimit === null ? 'No limit' : shown('subscriptionLimit', contract.subscriptionLimit),
          ],
        ]}
      />
      {spend && <ContractSpendBar spend={spend} />}
      <ContractHistory changes={changes} />
    </>
  );
}
