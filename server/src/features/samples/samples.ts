/**
 * Values a first call can be made with and find someone (issue 31): read from the graph the server holds, or from the
 * sandbox for a test key, never made up. A person with a name, an address, an e-mail and a phone, none of it
 * suppressed; a device and a VIN from the first people who have one.
 */
import type { LookupSamples } from '@tessera/common/samples';
import type { Database } from '../../db/client';
import { suppressedSql } from '../identities/record-sql';

const notSuppressed = (column: string) => `not ${suppressedSql(`('identity', ${column}::text)`)}`;

const SAMPLES_SQL = `with person as (
  select p.id, p.first_name, p.last_name, p.address, p.city, p.state, p.zip from people p
  where p.first_name <> '' and p.last_name <> '' and p.address <> '' and p.zip <> '' and ${notSuppressed('p.id')}
    and exists (select 1 from person_emails e where e.identity_id = p.id
      and not ${suppressedSql("('email', e.address)", "('md5', e.md5)", "('sha256', e.sha256)")})
    and exists (select 1 from person_phones f where f.identity_id = p.id and not ${suppressedSql("('phone', f.number)")})
  order by p.id limit 1
), email as (
  select e.address, e.md5, e.sha256 from person_emails e, person where e.identity_id = person.id
    and not ${suppressedSql("('email', e.address)", "('md5', e.md5)", "('sha256', e.sha256)")}
  order by e.last_seen desc nulls last, e.address limit 1
)
select person.id::text as id, person.first_name, person.last_name, person.address, person.city, person.state,
  person.zip, email.address as email, email.md5, email.sha256,
  (select f.number from person_phones f where f.identity_id = person.id and not ${suppressedSql("('phone', f.number)")}
    order by f.last_seen desc nulls last, f.number limit 1) as phone,
  (select host(i.ip) from person_ips i where i.identity_id = person.id
    order by i.last_seen desc nulls last, i.ip limit 1) as ip,
  (select d.device_id from person_devices d where ${notSuppressed('d.identity_id')}
    order by d.identity_id, d.device_id limit 1) as device,
  (select v.vin from person_vehicles v where ${notSuppressed('v.identity_id')}
    order by v.identity_id, v.vin limit 1) as vin
from person, email`;

interface Row {
  id: string;
  first_name: string;
  last_name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  email: string;
  md5: string;
  sha256: string;
  phone: string;
  ip: string | null;
  device: string | null;
  vin: string | null;
}

/** The samples `database` (the graph, or the sandbox's view of it) holds; null when it holds nobody to show. */
export async function readSamples(database: Database): Promise<Omit<LookupSamples, 'mode'> | null> {
  const [row] = await database.query<Row>(SAMPLES_SQL);
  if (!row) return null;
  return {
    id: Number(row.id),
    email: row.email,
    md5: row.md5,
    sha256: row.sha256,
    phone: row.phone,
    ip: row.ip,
    device: row.device,
    vin: row.vin,
    pii: {
      firstName: row.first_name,
      lastName: row.last_name,
      address: row.address,
      city: row.city,
      state: row.state,
      zip: row.zip,
    },
  };
}
