/**
 * E-mail addresses built from the person's name the way people pick them (john.smith, jsmith, smithj, ...).
 * Every local part is a letters-and-dots base plus, after the first use, a number (john.smith2): the base never
 * ends in a digit, so the address can be read back into base and number. Uses are counted in a fixed table of
 * counters indexed by a hash of the base; two bases that share a counter still never get the same number, so
 * every address in the graph belongs to one person, in constant memory (a shared counter only means some bases
 * get a number on first use). Negative queries use domains the graph never uses.
 */
import { mix32, type Rng, Weighted } from './prng';

export const CONSUMER_DOMAINS = Weighted.of<string>([
  ['gmail.com', 400],
  ['yahoo.com', 140],
  ['hotmail.com', 80],
  ['icloud.com', 70],
  ['outlook.com', 60],
  ['aol.com', 50],
  ['comcast.net', 30],
  ['live.com', 20],
  ['msn.com', 20],
  ['att.net', 20],
  ['sbcglobal.net', 20],
  ['bellsouth.net', 10],
  ['verizon.net', 15],
  ['cox.net', 10],
  ['me.com', 10],
  ['charter.net', 5],
  ['ymail.com', 5],
  ['protonmail.com', 5],
]);

/** Real-looking mail domains that no address in the graph uses. */
export const ABSENT_DOMAINS: readonly string[] = [
  'gmx.com',
  'mail.com',
  'zoho.com',
  'fastmail.com',
  'earthlink.net',
  'juno.com',
  'frontier.com',
  'windstream.net',
];

type Style = (f: string, m: string, l: string) => string;

const STYLES = Weighted.of<Style>([
  [(f, _m, l) => `${f}.${l}`, 28],
  [(f, _m, l) => `${f}${l}`, 14],
  [(f, _m, l) => `${f[0]}${l}`, 14],
  [(f, _m, l) => `${f}_${l}`, 5],
  [(f, _m, l) => `${f}${l[0]}`, 5],
  [(f, _m, l) => `${l}.${f}`, 5],
  [(f) => f, 4],
  [(f, _m, l) => `${f[0]}.${l}`, 6],
  [(f, _m, l) => `${l}${f[0]}`, 4],
  [(f, m, l) => `${f}${m[0] ?? ''}${l}`, 5],
  [(f, m, l) => (m ? `${f}.${m[0]}.${l}` : `${f}.${l}`), 3],
]);

const WORK_STYLES = Weighted.of<Style>([
  [(f, _m, l) => `${f}.${l}`, 6],
  [(f, _m, l) => `${f[0]}${l}`, 3],
  [(f, _m, l) => `${f}${l[0]}`, 1],
]);

/** Lower-case letters only ("O'Brien" → "obrien", "De La Cruz" → "delacruz"). */
const letters = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

export interface EmailName {
  /** The name the person goes by (may be a nickname). */
  first: string;
  middle: string;
  last: string;
}

/** Counters for local-part bases: 2^22 of them (16 MB) whatever the size of the graph. */
const COUNTER_SLOTS = 1 << 22;

function slotOf(base: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < base.length; i++) h = Math.imul(h ^ base.charCodeAt(i), 0x01000193);
  return mix32(h) & (COUNTER_SLOTS - 1);
}

export class EmailAddresses {
  private readonly uses = new Int32Array(COUNTER_SLOTS);

  private local(rng: Rng, name: EmailName, styles: Weighted<Style>): string {
    const base = styles.pick(rng)(letters(name.first) || 'x', letters(name.middle), letters(name.last) || 'x');
    const slot = slotOf(base);
    const used = this.uses[slot]!;
    this.uses[slot] = used + 1;
    return used === 0 ? base : `${base}${used + 1}`;
  }

  /** A personal address at a consumer mail domain. */
  personal(rng: Rng, name: EmailName): string {
    return `${this.local(rng, name, STYLES)}@${CONSUMER_DOMAINS.pick(rng)}`;
  }

  /** An address at the person's employer. */
  work(rng: Rng, name: EmailName, domain: string): string {
    return `${this.local(rng, name, WORK_STYLES)}@${domain}`;
  }
}

/** A plausible address for the name at a domain the graph never uses. */
export function absentEmail(rng: Rng, name: EmailName): string {
  const base = STYLES.pick(rng)(letters(name.first) || 'x', letters(name.middle), letters(name.last) || 'x');
  const digits = rng.chance(0.5) ? String(rng.between(1, 99)) : '';
  return `${base}${digits}@${rng.pick(ABSENT_DOMAINS)}`;
}
