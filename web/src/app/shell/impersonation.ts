/** Stopping an impersonation (spec §4): the staff user's own session comes back, and the console goes Home. */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';

export async function stopImpersonating(): Promise<void> {
  await api.put(AUTH_PATHS.stopImpersonating);
  refreshUser();
  navigate('/');
}
