/** A deployment's or task's status as a chip, coloured by outcome. */
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { DeploymentStatus, TaskStatus } from '@tessera/common/deployments';

const COLORS: Record<DeploymentStatus | TaskStatus, ChipProps['color']> = {
  queued: 'default',
  running: 'info',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

const LABELS: Record<DeploymentStatus | TaskStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function StatusChip({ status }: { status: DeploymentStatus | TaskStatus }) {
  return (
    <Chip
      size="small"
      color={COLORS[status]}
      variant={status === 'queued' ? 'outlined' : 'filled'}
      label={LABELS[status]}
      data-status={status}
    />
  );
}
