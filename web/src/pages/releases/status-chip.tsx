/** A release's status as a chip: a draft outlined, a published release filled. */
import Chip from '@mui/material/Chip';
import type { ReleaseStatus } from '@tessera/common/deployments';

export function ReleaseStatusChip({ status }: { status: ReleaseStatus }) {
  return status === 'published' ? (
    <Chip size="small" color="success" label="Published" />
  ) : (
    <Chip size="small" variant="outlined" label="Draft" />
  );
}
