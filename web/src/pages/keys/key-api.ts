import { type KeyMode, presentedKey } from '@tessera/common/keys';
import { api, request } from '../../lib/api';
import { KEYS_PATH, type NewKey, secretCall } from '../../lib/new-key';

export { KEYS_PATH, type NewKey };

export interface KeySettings {
  name?: string;
  expiresAt?: string | null;
  ipAllowlist?: string[];
  rateLimit?: number | null;
  allowedRecordTypes?: string[];
  legacy?: boolean;
  /** Only when the key is made: live or test, for good. */
  mode?: KeyMode;
}

export const createKey = (settings: KeySettings) => secretCall(KEYS_PATH, settings);

export const rotateKey = (id: string, graceSeconds: number) =>
  secretCall(`${KEYS_PATH}/${id}/rotate`, { graceSeconds });

/**
 * Saves a key's settings. With `version` (the ETag of the key as the form loaded it) the server refuses with 412 if
 * the key changed meanwhile: that failure is the form's to show (claimed), never an overwrite.
 */
export const updateKey = (id: string, settings: KeySettings, version?: string) =>
  request('PUT', `${KEYS_PATH}/${id}`, {
    body: settings,
    ...(version ? { headers: { 'if-match': version }, claim: (status: number) => status === 412 } : {}),
  });

export const revokeKeys = (ids: string[]) => Promise.all(ids.map((id) => api.del(`${KEYS_PATH}/${id}`)));

/** The header a key is presented with: `Bearer {keyId}{secret}`, a test key's with its `tk_test_` prefix. */
export const bearer = (key: Pick<NewKey, 'id' | 'secret' | 'mode'>) =>
  `Bearer ${presentedKey(key.mode, key.id, key.secret)}`;

/** A curl line calling the data API with the key, for an e-mail that finds someone (GET /v2/samples). */
export function curlLine(key: Pick<NewKey, 'id' | 'secret' | 'mode'>, origin: string, email: string): string {
  // '@' reads better as itself and is allowed in a query; anything else (a '+', say) is escaped.
  const value = encodeURIComponent(email).replaceAll('%40', '@');
  return `curl -H "Authorization: ${bearer(key)}" "${origin}/v2/identities/byEmail?email=${value}"`;
}
