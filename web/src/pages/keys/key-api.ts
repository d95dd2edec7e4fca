/**
 * The /v2/keys calls of the keys page. Creation and rotation reply with the key's secret, which must never reach
 * the store (it is shown once, in the page's own dialog): those two calls strip it before merging the rest, so
 * they go round the API client, which merges every reply whole. Everything else uses the client.
 */
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import { errorTitle } from '@tessera/common/errors';
import type { KeyEntry } from '@tessera/common/key-settings';
import { ApiError, api, errorText } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { logout } from '../../lib/session';
import { useStore } from '../../lib/store';

export const KEYS_PATH = '/v2/keys';

/** A key just made or rotated, with its secret: held only by the dialog that shows it. */
export interface NewKey {
  id: string;
  name: string;
  secret: string;
}

export interface KeySettings {
  name?: string;
  expiresAt?: string | null;
  ipAllowlist?: string[];
  rateLimit?: number | null;
  allowedRecordTypes?: string[];
  legacy?: boolean;
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
async function secretCall(path: string, body: unknown): Promise<NewKey> {
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
  return { id: key.id, name: key.name, secret };
}

export const createKey = (settings: KeySettings) => secretCall(KEYS_PATH, settings);

export const rotateKey = (id: string, graceSeconds: number) =>
  secretCall(`${KEYS_PATH}/${id}/rotate`, { graceSeconds });

export const updateKey = (id: string, settings: KeySettings) => api.put(`${KEYS_PATH}/${id}`, settings);

export const revokeKeys = (ids: string[]) => Promise.all(ids.map((id) => api.del(`${KEYS_PATH}/${id}`)));

/** The header a key is presented with: `Bearer {keyId}{secret}`. */
export const bearer = (key: Pick<NewKey, 'id' | 'secret'>) => `Bearer ${key.id}${key.secret}`;

/** A curl line calling the data API with the key. */
export function curlLine(key: Pick<NewKey, 'id' | 'secret'>, origin: string): string {
  return `curl -H "Authorization: ${bearer(key)}" "${origin}/v2/identities/byEmail?email=someone@example.com"`;
}
