/**
 * The ways a noisy PII query differs from the record it should find. Each function makes exactly the change its
 * name says, so a test (and a reader of the query set) can check it.
 */
import type { PiiInput, PiiNoise } from '../labelled-query';
import { formalNamesOf, nicknamesOf } from '../nicknames';
import { suffixFullName } from '../streets';
import { type Address, addressLine } from './addresses';
import type { Rng } from './prng';

/** A PII query before it is written out: the address still in parts. */
export interface PiiDraft {
  firstName: string;
  lastName: string;
  address: Address;
  zip: string | null;
}

export function renderPii(draft: PiiDraft): PiiInput {
  const input: PiiInput = {
    firstName: draft.firstName,
    lastName: draft.lastName,
    address: addressLine(draft.address),
    city: draft.address.city,
    state: draft.address.state,
  };
  if (draft.zip !== null) input.zip = draft.zip;
  return input;
}

/** Letters next to each other on a QWERTY keyboard: the likeliest slips. */
const NEIGHBOURS: Record<string, string> = {
  a: 'qwsz',
  b: 'vghn',
  c: 'xdfv',
  d: 'serfcx',
  e: 'wsdr',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  i: 'ujko',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  m: 'njk',
  n: 'bhjm',
  o: 'iklp',
  p: 'ol',
  q: 'wa',
  r: 'edft',
  s: 'awedxz',
  t: 'rfgy',
  u: 'yhji',
  v: 'cfgb',
  w: 'qase',
  x: 'zsdc',
  y: 'tghu',
  z: 'asx',
};

const isLetter = (ch: string) => /[a-z]/i.test(ch);
const sameCaseAs = (model: string, ch: string) => (model === model.toUpperCase() ? ch.toUpperCase() : ch);

/**
 * One edit: a letter replaced by a neighbouring key, dropped, doubled or swapped with the next one. The result
 * always differs from the name (ignoring case) and is one Damerau-Levenshtein edit away.
 */
export function typo(rng: Rng, name: string): string {
  const positions = [...name].flatMap((ch, i) => (isLetter(ch) ? [i] : []));
  if (positions.length < 2) return name;
  for (let attempt = 0; attempt < 8; attempt++) {
    const i = rng.pick(positions);
    const ch = name[i]!;
    const near = rng.pick([...NEIGHBOURS[ch.toLowerCase()]!]);
    let out: string;
    switch (rng.below(4)) {
      case 0:
        out = name.slice(0, i) + sameCaseAs(ch, near) + name.slice(i + 1);
        break;
      case 1:
        out = name.slice(0, i) + name.slice(i + 1);
        if (i === 0) out = out.charAt(0).toUpperCase() + out.slice(1);
        break;
      case 2:
        out = name.slice(0, i + 1) + ch.toLowerCase() + name.slice(i + 1);
        break;
      default: {
        const next = name[i + 1];
        if (!next || !isLetter(next)) continue;
        out = i === 0 ? next.toUpperCase() + ch.toLowerCase() : next + ch;
        out = name.slice(0, i) + out + name.slice(i + 2);
      }
    }
    if (out.toLowerCase() !== name.toLowerCase() && out.trim() !== '') return out;
  }
  const i = positions[1]!;
  return name.slice(0, i) + NEIGHBOURS[name[i]!.toLowerCase()]![0] + name.slice(i + 1);
}

/** Other spellings of the same given name: its nicknames, or the formal names it shortens. */
export function nameVariants(name: string): string[] {
  const variants = new Set([...nicknamesOf(name), ...formalNamesOf(name)]);
  variants.delete(name);
  return [...variants];
}

/** A field written in another case or with extra spaces; always different from the original. */
export function recase(rng: Rng, value: string): string {
  const options = [
    value.toUpperCase(),
    value.toLowerCase(),
    `  ${value}`,
    `${value}  `,
    value.replace(/ /g, '  '),
    ` ${value.toUpperCase()} `,
  ].filter((v) => v !== value);
  return options.length > 0 ? rng.pick(options) : `${value} `;
}

export interface NoiseContext {
  formalFirst: string;
  previous: Address | null;
}

/** Whether a noise kind can change this draft (a unit to drop, a suffix to rewrite, ...). */
export function applicable(kind: PiiNoise, draft: PiiDraft, context: NoiseContext): boolean {
  switch (kind) {
    case 'staleAddress':
      return context.previous !== null;
    case 'nickname':
      return draft.firstName !== context.formalFirst || nameVariants(draft.firstName).length > 0;
    case 'suffix':
      // 'Way', 'Loop', 'Run' are spelled the same both ways
      return draft.address.suffix !== '' && suffixFullName(draft.address.suffix) !== draft.address.suffix;
    case 'missingUnit':
      return draft.address.unit !== '';
    case 'missingZip':
      return draft.zip !== null;
    case 'typo':
      return draft.firstName.length >= 2 && draft.lastName.length >= 2;
    default:
      return true;
  }
}

/** The draft with one more kind of noise; 'case' is applied to the rendered input instead (see `recaseInput`). */
export function addNoise(rng: Rng, kind: PiiNoise, draft: PiiDraft, context: NoiseContext): PiiDraft {
  switch (kind) {
    case 'staleAddress':
      return { ...draft, address: context.previous!, zip: draft.zip === null ? null : context.previous!.zip };
    case 'nickname': {
      const name =
        draft.firstName !== context.formalFirst ? context.formalFirst : rng.pick(nameVariants(draft.firstName));
      return { ...draft, firstName: name };
    }
    case 'typo':
      return rng.chance(0.5)
        ? { ...draft, firstName: typo(rng, draft.firstName) }
        : { ...draft, lastName: typo(rng, draft.lastName) };
    case 'swapped':
      return { ...draft, firstName: draft.lastName, lastName: draft.firstName };
    case 'suffix':
      return { ...draft, address: { ...draft.address, suffixFull: !draft.address.suffixFull } };
    case 'missingUnit':
      return { ...draft, address: { ...draft.address, unit: '' } };
    case 'missingZip':
      return { ...draft, zip: null };
    case 'case':
      return draft;
  }
}

type TextField = 'firstName' | 'lastName' | 'address' | 'city';
const TEXT_FIELDS: readonly TextField[] = ['firstName', 'lastName', 'address', 'city'];

/** Wrong case or extra spaces in one to three of the text fields (of `among`, those the query has). */
export function recaseInput(rng: Rng, input: PiiInput, among: readonly TextField[] = TEXT_FIELDS): PiiInput {
  const fields = rng.sample(among, rng.between(1, Math.min(3, among.length)));
  const out = { ...input };
  for (const field of fields) out[field] = recase(rng, out[field]);
  return out;
}
