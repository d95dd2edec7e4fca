/**
 * Making a key from the console: the reply carries the secret, shown once and never put in the store. So the call
 * goes round the API client (which merges every reply whole), strips the secret and merges the rest. Used by the keys
 * page and by the Client Libraries page's "make a test key for this example".
 */
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import { errorTitle } from '@tessera/common/errors';
import type { KeyEntry } from '@tessera/common/key-settings';
import type { KeyMode } from '@tessera/common/keys';
import { ApiError, errorText } from './api';
import { navigate } from './navigator';
import { logout } from './session';
import { useStore } from './store';

export const KEYS_PATH = '/v2/keys';

/** A key just made or rotated, with its secret: held only by the dialog that shows it. */
export interface NewKey {
  id: string;
  name: string;
  secret: string;
  mode: KeyMode;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/** A POST whose reply carries a secret: as the API client does, except that the secret is kept out of the store. */
export async function secretCall(path: string, body: unknown): Promise<NewKey> {
  const res = await fetch(path, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      [REQUESTED_WITH_HEADER]: 'XMLHttpRequest',
    },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const parsed = await readJson(res);
  if (!res.ok) {
    const store = useStore.getState();
    if (res.status === 401 && store.self.id !== 0) void logout();
    else if (res.status === 451) navigate('/terms');
    else if (res.status === 403) navigate('/error/403');
    else if (res.status === 404) navigate('/error/404');
    else store.addAlert({ type: 'error', title: errorTitle(res.status), text: errorText(res.status, parsed) });
    throw new ApiError(res.status, parsed, errorText(res.status, parsed));
  }
  const keys = (parsed as { keys?: Record<string, KeyEntry> } | null)?.keys ?? {};
  const [key] = Object.values(keys);
  if (!key?.secret) throw new Error('The reply carries no key.');
  const { secret, ...rest } = key;
  useStore.getState().merge({ keys: { [key.id]: rest } });
  return { id: key.id, name: key.name, secret, mode: key.mode ?? 'live' };
}
