import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import fitted from '../../../../server/src/features/scoring/fitted-model.json';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { EXAMPLE, validate } from './calculator';
import { bitsOf, FIELDS, MODEL } from './scoring-model';
import ScoringPage from './scoring-page';
import { type PiiExplain, priorBits, scoreOf, topExplained, total, waterfall } from './waterfall';

setupPageTests();

beforeEach(() => {
  // The chart measures itself; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

const pii = (fields: Record<string, [string, number]>, extra: Partial<PiiExplain> = {}): PiiExplain => {
  const entries = Object.entries(fields).map(([k, [level, weight]]) => [k, { level, weight }] as const);
  const weight = priorBits(MODEL.prior) + entries.reduce((s, [, f]) => s + f.weight, 0);
  return { weight: Math.round(weight * 100) / 100, fields: Object.fromEntries(entries), ...extra };
};
const scoreFor = (p: PiiExplain) => Math.round(scoreOf(p.weight));

describe('the model', () => {
  it('is the engine’s fitted file, field by field', () => {
    expect(MODEL.prior).toBe(fitted.prior);
    expect(FIELDS).toEqual(['firstName', 'lastName', 'street', 'city', 'state', 'zip']);
    expect(bitsOf('firstName', 'exact')).toBeCloseTo(Math.log2(fitted.m.firstName.exact / fitted.u.firstName.exact));
  });
});

describe('waterfall arithmetic', () => {
  it('adds up to the score the API returned, starting from the prior', () => {
    const top = topExplained(EXAMPLE.reply)!;
    const steps = waterfall(top.explain.pii, top.score, MODEL.prior, FIELDS);
    expect(steps.map((s) => s.key)).toEqual(['prior', ...FIELDS]);
    expect(steps[0]!.to).toBe(Math.round(scoreOf(priorBits(MODEL.prior))));
    expect(total(steps)).toBe(top.score);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.from).toBe(steps[i - 1]!.to);
    // The bits add up to the reply's weight (each rounded to 0.01 in the reply).
    expect(steps.reduce((s, x) => s + x.bits, 0)).toBeCloseTo(top.explain.pii.weight, 1);
  });

  it('shows a disagreeing field as a fall, and a missing field not at all', () => {
    const p = pii({ firstName: ['exact', 6.51], lastName: ['different', -4.55], zip: ['exact', 0.09] });
    const steps = waterfall(p, scoreFor(p), MODEL.prior, FIELDS);
    expect(steps.map((s) => s.key)).toEqual(['prior', 'firstName', 'lastName', 'zip']);
    expect(steps[2]!.delta).toBeLessThan(0);
    expect(total(steps)).toBe(scoreFor(p));
  });

  it('lands on the returned score even when rounding of the bits would miss it, and counts a swap', () => {
    const p = pii({ firstName: ['exact', 2.5], lastName: ['exact', 0.67] }, { swapped: true });
    p.weight -= 1;
    const steps = waterfall(p, 61, MODEL.prior, FIELDS);
    expect(steps.at(-1)).toMatchObject({ key: 'swap', to: 61 });
    expect(steps.at(-1)!.bits).toBeCloseTo(-1, 2);
    expect(total(steps)).toBe(61);
  });

  it('finds no top identity in an empty reply', () => {
    expect(topExplained({ identities: [] })).toBeNull();
    expect(topExplained(null)).toBeNull();
  });
});

describe('calculator form checks', () => {
  const empty = { firstName: '', lastName: '', address: '', city: '', state: '', zip: '' };
  it('asks for names and a place, with the API’s messages', () => {
    const errors = validate(empty);
    expect(errors.firstName).toBe('A PII lookup needs firstName and lastName.');
    expect(errors.address).toMatch(/street address/);
    expect(validate({ ...empty, firstName: 'A', lastName: 'B', zip: '123' }).zip).toMatch(/5-digit/);
    expect(validate({ ...empty, firstName: 'A', lastName: 'B', address: 'Main St' }).address).toMatch(/house number/);
    expect(validate({ ...empty, firstName: 'A', lastName: 'B', state: 'NY' })).toEqual({});
  });
});

describe('scoring page', () => {
  it('shows visitors the built-in example reply, its bars adding up to its score', async () => {
    renderPage(<ScoringPage />, '/scoring');
    expect(screen.getByTestId('model-table')).toBeTruthy();
    const top = topExplained(EXAMPLE.reply)!;
    expect(screen.getByTestId('calc-score').textContent).toBe(String(top.score));
    expect(screen.getByTestId('calc-result').dataset.source).toBe('example');
    await screen.findByTestId('waterfall-table');
    const deltas = screen.getAllByTestId('step-delta').map((c) => Number(c.dataset.value));
    expect(deltas.reduce((a, b) => a + b, 0)).toBe(top.score);
    expect(screen.queryByTestId('calc-submit')).toBeNull();
    expect(network.calls).toEqual([]);
  });

  it('asks byPii with explain=true for a signed-in user and draws the reply', async () => {
    signIn(user(5, 'user'));
    const reply = {
      requestId: 'r',
      identities: [
        {
          score: 80,
          id: 42,
          firstName: 'Ann',
          lastName: 'Lee',
          explain: { keys: [], pii: pii({ firstName: ['exact', 6.51], lastName: ['different', -4.55] }) },
        },
      ],
    };
    reply.identities[0]!.score = scoreFor(reply.identities[0]!.explain.pii);
    let query = '';
    const fetchSpy = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      query = new URL(url, 'http://localhost').search;
      return fetchSpy(url, init);
    });
    network.on('GET /v2/identities/byPii', { body: reply });
    renderPage(<ScoringPage />, '/scoring');
    fireEvent.click(screen.getByTestId('calc-submit'));
    await waitFor(() => expect(screen.getByTestId('calc-result').dataset.source).toBe('api'));
    const params = new URLSearchParams(query);
    expect(params.get('explain')).toBe('true');
    expect(params.get('firstName')).toBe(EXAMPLE.query.firstName);
    expect(screen.getByTestId('calc-score').textContent).toBe(String(reply.identities[0]!.score));
    await waitFor(() =>
      expect(screen.getAllByTestId('step-delta').reduce((s, c) => s + Number(c.dataset.value), 0)).toBe(
        reply.identities[0]!.score,
      ),
    );
  });
});
