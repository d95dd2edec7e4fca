/**
 * An organization's contracts on its page (issue 19), for its administrators and super+: each with its term,
 * status and limits, the one in force marked (as the 402 check chooses it), linked to its page; super+ add one.
 */
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CONTRACT_STATUS_LABELS, type Contract, contractInForce } from '@tessera/common/contracts';
import { formatDay } from '@tessera/common/dates';
import { formatMoney } from '@tessera/common/money';
import { hasRank } from '@tessera/common/roles';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { EmptyRow } from '../empty-row';

const limitText = (n: number | null) => (n === null ? 'No limit' : formatMoney(n));

export function OrganizationContracts({ organizationId }: { organizationId: number }) {
  const role = useStore((s) => s.self.role);
  const all = useStore((s) => s.areas.contracts) as Record<string, Contract> | undefined;
  useFetch('/v2/contracts', { organizationId });
  const contracts = useMemo(
    () =>
      Object.values(all ?? {})
        .filter((c) => c.organizationId === organizationId && 'pricePerRequest' in c)
        .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt) || b.id - a.id),
    [all, organizationId],
  );
  const inForce = contractInForce(contracts, Date.now());
  return (
    <section aria-labelledby="contracts-heading" id="contracts">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mt: 4, mb: 1 }}>
        <Typography variant="h5" component="h2" id="contracts-heading">
          Contracts
        </Typography>
        {hasRank(role, 'super') && (
          <Button component={RouterLink} to={`/contracts/add/${organizationId}`} startIcon={<AddIcon />}>
            Add contract
          </Button>
        )}
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Contracts">
          <TableHead>
            <TableRow>
              <TableCell>Contract</TableCell>
              <TableCell>Term (UTC)</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Monthly limit</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {contracts.map((c) => (
              <TableRow key={c.id} data-testid="contract-row">
                <TableCell>
                  <Link component={RouterLink} to={`/contracts/${c.id}`}>
                    {c.name || `Contract ${c.id}`}
                  </Link>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDay(c.startsAt)} to {formatDay(c.endsAt)}
                </TableCell>
                <TableCell>
                  {CONTRACT_STATUS_LABELS[c.status]}
                  {inForce?.id === c.id && (
                    <Chip size="small" color="success" label="In force" sx={{ ml: 1 }} data-testid="in-force" />
                  )}
                </TableCell>
                <TableCell>{limitText(c.monthlyLimit)}</TableCell>
              </TableRow>
            ))}
            {contracts.length === 0 && <EmptyRow columns={4}>This organization has no contracts.</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
    </section>
  );
}
