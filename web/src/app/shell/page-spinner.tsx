/** Spec §2 full-page loading spinner, shown while the loading flag is set (after a short delay, so quick
 * navigations do not flash it). */
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { useStore } from '../../lib/store';

export function PageSpinner() {
  const loading = useStore((s) => s.loading);
  return (
    <Backdrop
      open={loading}
      data-testid="page-spinner"
      aria-busy={loading}
      sx={{
        zIndex: (theme) => theme.zIndex.drawer + 2,
        backgroundColor: 'transparent',
        transitionDelay: loading ? '200ms' : '0ms',
      }}
    >
      <CircularProgress aria-label="Loading" />
    </Backdrop>
  );
}
