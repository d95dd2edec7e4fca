/**
 * Sample lookup inputs that find someone on this server (GET /v2/samples, issue 31): the graph's for live keys and
 * the console, the sandbox's for test keys. Read with a plain fetch: they are not a data area of the store. Until
 * they arrive, or when the server holds nobody, the placeholder shows.
 */
import type { KeyMode } from '@tessera/common/keys';
import { type LookupSamples, PLACEHOLDER_EMAIL, SAMPLES_PATH } from '@tessera/common/samples';
import { useEffect, useState } from 'react';

const asked = new Map<KeyMode, Promise<LookupSamples | null>>();

function fetchSamples(mode: KeyMode): Promise<LookupSamples | null> {
  let pending = asked.get(mode);
  if (!pending) {
    pending = fetch(`${SAMPLES_PATH}?mode=${mode}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
      .then((res) => (res.ok ? (res.json() as Promise<{ samples: LookupSamples | null }>) : { samples: null }))
      .then((body) => body.samples)
      .catch(() => null);
    // A failure is asked again next time; a reply is kept for the page's life.
    void pending.then((samples) => {
      if (!samples) asked.delete(mode);
    });
    asked.set(mode, pending);
  }
  return pending;
}

/** The samples for `mode`, or null while they load or when there are none. */
export function useSamples(mode: KeyMode = 'live'): LookupSamples | null {
  const [samples, setSamples] = useState<LookupSamples | null>(null);
  useEffect(() => {
    let live = true;
    void fetchSamples(mode).then((s) => {
      if (live) setSamples(s);
    });
    return () => {
      live = false;
    };
  }, [mode]);
  // A mode just changed: the other mode's samples are never shown in the meantime.
  return samples?.mode === mode ? samples : null;
}

/** The e-mail a first call should use: the sample's, or the placeholder. */
export const sampleEmail = (samples: LookupSamples | null) => samples?.email ?? PLACEHOLDER_EMAIL;

/** The sample for a lookup input by its name (email, phone, ..., firstName), or undefined when there is none. */
export function sampleInput(samples: LookupSamples | null, name: string): string | undefined {
  if (!samples) return undefined;
  const flat: Record<string, string | number | null> = {
    id: samples.id,
    email: samples.email,
    md5: samples.md5,
    sha256: samples.sha256,
    phone: samples.phone,
    ip: samples.ip,
    device: samples.device,
    vin: samples.vin,
    ...samples.pii,
  };
  const value = flat[name];
  return value === null || value === undefined ? undefined : String(value);
}
