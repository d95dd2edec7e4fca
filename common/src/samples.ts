/**
 * Sample lookup inputs the console shows (issue 31): values that find a person on the data this server holds, for
 * live keys and the console, or in the sandbox, for test keys. Served by `GET /v2/samples?mode=live|test`.
 */
import type { KeyMode } from './keys';

export interface LookupSamples {
  mode: KeyMode;
  /** An identity id of the person the other values find. */
  id: number;
  email: string;
  md5: string;
  sha256: string;
  phone: string;
  ip: string | null;
  /** From the first person with a device or a vehicle: the sample person may have none. */
  device: string | null;
  vin: string | null;
  pii: { firstName: string; lastName: string; address: string; city: string; state: string; zip: string };
}

export const SAMPLES_PATH = '/v2/samples';

/** What a console shows until the samples arrive, or when the graph is empty: plainly a placeholder. */
export const PLACEHOLDER_EMAIL = 'someone@example.com';
