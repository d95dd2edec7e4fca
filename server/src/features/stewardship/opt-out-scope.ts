/**
 * What a confirmed opt-out may suppress (issue 28 item 2, decision 0039 as amended). Only what was proven: the link
 * proves the e-mail; nothing proves a phone (we send no SMS), so a phone is suppressed only where some identity holds
 * it together with that e-mail, and a person only as the one identity holding that e-mail. Suppressing by the
 * phone's holders instead let a throwaway mailbox plus someone's number erase that someone.
 */
import type { OptOutOutcome, SuppressionKey } from '@tessera/common/stewardship';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { storedKey } from './keys';

/** The suppressions an opt-out of this (normalised) e-mail and phone adds, and the outcome the reply and mail tell. */
export async function provenKeys(
  db: Executor,
  email: string,
  phone: string | null,
): Promise<{ keys: SuppressionKey[]; outcome: OptOutOutcome }> {
  const emailKey = storedKey({ kind: 'email', value: email });
  // Read before anything is suppressed: the identities holding the address, and whether each holds the phone too.
  const result = (await db.execute(sql`select e.identity_id::text as id,
      bool_or(exists (select 1 from person_phones f where f.identity_id = e.identity_id and f.number = ${phone}))
        as has_phone
      from person_emails e where e.sha256 = ${emailKey.value} group by e.identity_id`)) as unknown as {
    rows: { id: string; has_phone: boolean }[];
  };
  const holders = result.rows;
  const phoneProven = phone !== null && holders.some((h) => h.has_phone);
  // An address two people share is left out, but neither person: we cannot tell which one asked.
  const person = holders.length === 1 ? holders[0]!.id : null;
  const keys: SuppressionKey[] = [emailKey];
  if (phone !== null && phoneProven) keys.push({ kind: 'phone', value: phone });
  if (person) keys.push({ kind: 'identity', value: person });
  return { keys, outcome: { email: true, phone: phone === null ? null : phoneProven, person: person !== null } };
}
