/**
 * Make a key (/keys/add) or change one (/keys/edit/{id}): name, optional expiry, IP allowlist (each entry an
 * address or CIDR range), rate limit, record types (from its user's own), and the original API's md5 signing as
 * an opt-in with a warning. A new key is shown once in the secret dialog; closing it goes to the key's page.
 */
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { versionTag } from '@tessera/common/etag';
import { type KeyEntry, normalizeCidr, splitAllowlist } from '@tessera/common/key-settings';
import { KEY_LIMITS, KEY_MESSAGES, TEST_KEY_PREFIX } from '@tessera/common/keys';
import { RECORD_TYPES } from '@tessera/common/record-types';
import type { UserEntry } from '@tessera/common/resources';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useEffect, useRef, useState } from 'react';
import { CheckboxInput, FormActions, FormContainer, StaleAlert, TextInput, useForm, useFormContext } from '../../forms';
import { ApiError, api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { createKey, KEYS_PATH, type KeySettings, type NewKey, updateKey } from './key-api';
import { SecretDialog } from './secret-dialog';

export type KeyValues = {
  name: string;
  expires: string;
  ipAllowlist: string;
  rateLimit: string;
  recordTypes: string;
  legacy: string;
  /** Chosen when the key is made, fixed afterwards: `live` or `test`. */
  mode: string;
};

const EMPTY: KeyValues = {
  name: '',
  expires: '',
  ipAllowlist: '',
  rateLimit: '',
  recordTypes: '',
  legacy: '',
  mode: 'live',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A date input's value (YYYY-MM-DD, local) for an ISO time. */
export function dateValue(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of a chosen day, local time, as ISO; null for none. */
export function expiryOf(value: string): string | null {
  if (value === '') return null;
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, 23, 59, 59).toISOString();
}

export function checkExpiry(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return 'Please provide a valid date.';
  return Date.parse(expiryOf(value) ?? '') > Date.now() ? undefined : KEY_MESSAGES.expiresPast;
}

export function checkAllowlist(value: string): string | undefined {
  const entries = splitAllowlist(value);
  if (entries.length > KEY_LIMITS.maxAllowlist) return `Please list at most ${KEY_LIMITS.maxAllowlist} entries.`;
  const bad = entries.find((e) => normalizeCidr(e) === null);
  return bad === undefined ? undefined : KEY_MESSAGES.cidr(bad.slice(0, 60));
}

export function checkRateLimit(value: string): string | undefined {
  const n = Number(value);
  return n >= 1 && n <= KEY_LIMITS.maxRateLimit
    ? undefined
    : `Please provide a limit from 1 to ${KEY_LIMITS.maxRateLimit.toLocaleString('en-US')}.`;
}

/** The body a save sends. */
export function keySettings(values: KeyValues): KeySettings {
  return {
    name: values.name.trim(),
    expiresAt: expiryOf(values.expires),
    ipAllowlist: splitAllowlist(values.ipAllowlist).map((e) => normalizeCidr(e) ?? e),
    rateLimit: values.rateLimit.trim() === '' ? null : Number(values.rateLimit),
    allowedRecordTypes: values.recordTypes === '' ? [] : values.recordTypes.split(','),
    legacy: values.legacy === 'true',
  };
}

export function keyValues(key: KeyEntry): KeyValues {
  return {
    name: key.name,
    expires: dateValue(key.expiresAt),
    ipAllowlist: key.ipAllowlist.join('\n'),
    rateLimit: key.rateLimit === null ? '' : String(key.rateLimit),
    recordTypes: key.allowedRecordTypes.join(','),
    legacy: key.legacy ? 'true' : '',
    mode: key.mode,
  };
}

/** Live or test, for a new key only: a test key answers from the sandbox, free, and is marked as such everywhere. */
function ModeInput() {
  const form = useFormContext();
  return (
    <FormControl component="fieldset" variant="standard">
      <FormLabel component="legend">Mode</FormLabel>
      <RadioGroup row value={form.values.mode ?? 'live'} onChange={(e) => form.setValue('mode', e.target.value)}>
        <FormControlLabel value="live" control={<Radio />} label="Live: real people, metered" />
        <FormControlLabel value="test" control={<Radio />} label={`Test (${TEST_KEY_PREFIX}): the sandbox, free`} />
      </RadioGroup>
      <FormHelperText>
        A test key reads a fixed public set of synthetic people with the same endpoints, templates and errors; it never
        sees a real person and is never charged. A key keeps its mode for life.
      </FormHelperText>
    </FormControl>
  );
}

/** Checkboxes of the record types a key may receive, held as a comma-separated value. */
function RecordTypesInput({ choices }: { choices: readonly string[] }) {
  const form = useFormContext();
  const chosen = (form.values.recordTypes ?? '').split(',').filter((t) => t !== '');
  const set = (type: string, on: boolean) => {
    const next = on ? [...chosen, type] : chosen.filter((t) => t !== type);
    form.setValue('recordTypes', choices.filter((t) => next.includes(t)).join(','));
  };
  return (
    <FormControl component="fieldset" variant="standard">
      <FormLabel component="legend">Record types</FormLabel>
      <FormGroup row>
        {choices.map((type) => (
          <FormControlLabel
            key={type}
            label={type}
            control={<Checkbox checked={chosen.includes(type)} onChange={(e) => set(type, e.target.checked)} />}
          />
        ))}
      </FormGroup>
      <FormHelperText>None chosen: every record type its user may receive.</FormHelperText>
    </FormControl>
  );
}

function LegacyWarning() {
  const form = useFormContext();
  if (form.values.legacy !== 'true') return null;
  return (
    <Alert severity="warning" data-testid="legacy-warning">
      The original API's signed form hashes the secret with MD5, which is weak, and accepts a token for 35 minutes. Turn
      it on only for clients of the original API that cannot send the key itself or an HMAC signature.
    </Alert>
  );
}

export function KeyEditor({ id }: { id?: string }) {
  const self = useStore((s) => s.self);
  const key = useStore((s) =>
    id === undefined ? undefined : (s.areas.keys as Record<string, KeyEntry> | undefined)?.[id],
  );
  const owner = useStore((s) =>
    key ? (s.areas.users as Record<string, UserEntry> | undefined)?.[String(key.userId)] : undefined,
  );
  const form = useForm<KeyValues>(EMPTY);
  const loaded = useRef(false);
  /** The version of the key the form shows (If-Match): a save never overwrites a change made since (issue 31). */
  const version = useRef<string | undefined>(undefined);
  const [stale, setStale] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<NewKey | null>(null);

  useFetch(id === undefined ? null : `${KEYS_PATH}/${id}`);

  useEffect(() => {
    if (!key || loaded.current) return;
    loaded.current = true;
    version.current = versionTag(key);
    form.reset(keyValues(key));
  }, [key, form.reset]);

  if (id !== undefined && !key) return <CircularProgress aria-label="Loading the key" />;

  // A key receives only record types its user may; an empty list of the user's means all of them.
  const ownTypes = key && key.userId !== self.id ? (owner?.allowedRecordTypes ?? []) : self.allowedRecordTypes;
  const choices = RECORD_TYPES.filter((t) => ownTypes.length === 0 || ownTypes.includes(t));
  const back = id === undefined ? `/users/${self.id}#keys` : `/keys/${id}`;

  async function save(values: KeyValues) {
    if (id === undefined) {
      setNewKey(await createKey({ ...keySettings(values), mode: values.mode === 'test' ? 'test' : 'live' }));
    } else {
      try {
        await updateKey(id, keySettings(values), version.current);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 412) throw err;
        setStale(err.message);
        return;
      }
      navigate(`/keys/${id}`);
    }
  }

  /** After a 412: the key as it is now, in the form, in place of the edits that were not saved. */
  async function reload() {
    if (id === undefined) return;
    await api.get(`${KEYS_PATH}/${id}`);
    const fresh = (useStore.getState().areas.keys as Record<string, KeyEntry> | undefined)?.[id];
    if (!fresh) return;
    version.current = versionTag(fresh);
    form.reset(keyValues(fresh));
    setStale(null);
  }

  return (
    <>
      <PageHeading>{id === undefined ? 'New API Key' : `Edit ${key?.name ?? 'API Key'}`}</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 720 }}>
        <Stack spacing={2}>
          <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} autoFocus />
          {id === undefined && <ModeInput />}
          <TextInput
            name="expires"
            label="Expires"
            type="date"
            optional
            check={checkExpiry}
            helperText="Empty: never expires."
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextInput
            name="ipAllowlist"
            label="IP allowlist"
            optional
            multiline
            minRows={2}
            maxLength={KEY_LIMITS.maxAllowlist * 50}
            check={checkAllowlist}
            helperText="Addresses or CIDR ranges, IPv4 or IPv6, one a line. Empty: anywhere."
          />
          <TextInput
            name="rateLimit"
            label="Rate limit (requests a minute)"
            what="a rate limit"
            rule="integer"
            optional
            check={checkRateLimit}
            helperText="Empty: the organization's limit alone."
          />
          <RecordTypesInput choices={choices} />
          <CheckboxInput name="legacy" label="Accept the original API's MD5-signed form (legacy)" />
          <LegacyWarning />
          {stale && <StaleAlert message={stale} onReload={() => void reload()} testId="stale-key" />}
          <FormActions
            submit={id === undefined ? 'Create Key' : 'Save'}
            blocked={newKey !== null}
            onCancel={() => navigate(back)}
          />
        </Stack>
      </FormContainer>
      <SecretDialog
        newKey={newKey}
        onClose={() => {
          const made = newKey;
          setNewKey(null);
          if (made) navigate(`/keys/${made.id}`);
        }}
      />
    </>
  );
}
