import type { Contract } from '@tessera/common/contracts';
import { formatDate } from '@tessera/common/dates';
import type { User } from '@tessera/common/entities';
import type { KeyEntry } from '@tessera/common/key-settings';
import type { Template } from '@tessera/common/templates';
import { USAGE_METRICS, type UsagePoint, type UsageTotals } from '@tessera/common/usage';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { contractInForce, daysStart, monthStart, percentText, recentKeys, recentTemplates } from './home-data';
import HomePage from './home-page';
import { sparklineText } from './requests-sparkline';

setupPageTests();

/** Every URL the page fetched, query string included (the shared fake records paths only). */
let urls: URL[] = [];

beforeEach(() => {
  urls = [];
  const inner = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    urls.push(new URL(url, 'http://localhost'));
    return inner(url, init);
  });
  // The sparkline measures its container; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

const totals = (values: Partial<UsageTotals> = {}): UsageTotals =>
  ({ ...Object.fromEntries(USAGE_METRICS.map((m) => [m, 0])), ...values }) as UsageTotals;

function days(values: number[]): UsagePoint[] {
  return values.map((value, i) => ({ at: new Date(2026, 5, 1 + i).toISOString(), value }));
}

const contract = (extra: Partial<Contract> = {}): Contract => ({
  id: 1,
  organizationId: 3,
  name: 'Standard',
  startsAt: '2020-01-01T00:00:00Z',
  endsAt: '2099-01-01T00:00:00Z',
  status: 'active',
  pricePerRequest: 0.01,
  pricePerIdentity: 0,
  groupPrices: {},
  monthlyLimit: 500,
  rateLimit: null,
  pricePerEvent: 0,
  subscriptionLimit: null,
  createdAt: '2020-01-01T00:00:00Z',
  updatedAt: '2020-01-01T00:00:00Z',
  ...extra,
});

const key = (id: string, userId: number, lastUsedAt: string | null, extra: Partial<KeyEntry> = {}): KeyEntry => ({
  id,
  name: `Key ${id}`,
  userId,
  organizationId: 3,
  lastFour: 'abcd',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
  ipAllowlist: [],
  rateLimit: null,
  allowedRecordTypes: [],
  legacy: false,
  mode: 'live',
  previousValidUntil: null,
  lastUsedAt,
  callsThisMonth: lastUsedAt ? 3 : 0,
  ...extra,
});

const template = (id: number, updatedAt: string): Template => ({
  id,
  name: `Template ${id}`,
  description: '',
  organizationId: 3,
  adminIds: [],
  createdBy: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt,
  publishedVersion: 1,
  expression: '$',
  draft: null,
});

interface Answers {
  totals?: UsageTotals;
  points?: UsagePoint[];
  contracts?: Contract[];
  keys?: KeyEntry[];
  templates?: Template[];
}

function answer(answers: Answers = {}) {
  network.on('GET /v2/usage/totals', { body: { usageTotals: { totals: answers.totals ?? totals() } } });
  network.on('GET /v2/usage/series', { body: { usageSeries: { points: answers.points ?? days([0, 0, 0]) } } });
  network.on('GET /v2/contracts', {
    body: { contracts: Object.fromEntries((answers.contracts ?? []).map((c) => [c.id, c])) },
  });
  network.on('GET /v2/keys', { body: { keys: Object.fromEntries((answers.keys ?? []).map((k) => [k.id, k])) } });
  network.on('GET /v2/templates', {
    body: { templates: Object.fromEntries((answers.templates ?? []).map((t) => [t.id, t])) },
  });
}

const asked = (path: string) => urls.filter((u) => u.pathname === path);

async function open(self: User, answers: Answers = {}) {
  answer(answers);
  signIn(self);
  renderPage(<HomePage />);
  await screen.findByTestId('home-requests');
}

describe('home page figures', () => {
  it('shows the month’s requests, match rate, identities and cost against the monthly limit', async () => {
    await open(
      { ...user(7, 'user'), organizationName: 'Acme' },
      {
        totals: totals({ requests: 1234, inputs: 40, inputsWithIdentities: 30, identities: 5678, cost: 12.34 }),
        points: days([1, 5, 0, 2]),
        contracts: [contract()],
      },
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toBeTruthy();
    expect(screen.getByTestId('home-requests').textContent).toBe('1,234');
    expect(screen.getByTestId('home-match-rate').textContent).toBe('75.0 %');
    expect(screen.getByTestId('home-identities').textContent).toBe('5,678');
    expect(screen.getByTestId('home-cost').textContent).toBe('$12.34');
    const bar = await screen.findByRole('progressbar', { name: 'Cost against the monthly limit' });
    expect(bar.getAttribute('aria-valuetext')).toBe('$12.34 of $500.00 (2 %)');
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeCloseTo(2, 0);
    expect(screen.getByTestId('limit-text').textContent).toBe('$12.34 of $500.00 (2 %)');
    expect(screen.getByText(/the limit is shared by everyone in Acme/)).toBeTruthy();
    // The sparkline's text alternative names the total and the busiest day, and is the chart's name.
    expect(screen.getByTestId('home-sparkline-text').textContent).toBe(
      '8 requests in the last 30 days; the busiest day was 6/2/26 with 5.',
    );
    expect(screen.getByRole('img', { name: /8 requests in the last 30 days/ })).toBeTruthy();
    expect(screen.queryByTestId('home-empty')).toBeNull();
  });

  it('says plainly when there is no contract, or no limit, and shows no bar', async () => {
    await open(user(7, 'user'), { totals: totals({ requests: 2, cost: 0.02 }) });
    await waitFor(() =>
      expect(screen.getByTestId('limit-text').textContent).toBe(
        'Your organization has no contract in force, so there is no monthly limit.',
      ),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => useStore.getState().merge({ contracts: { 1: contract({ monthlyLimit: null }) } }));
    expect(screen.getByTestId('limit-text').textContent).toBe('Your organization’s contract has no monthly limit.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('tells an empty month how to make a first call', async () => {
    await open(user(7, 'user'), { contracts: [contract()] });
    const empty = screen.getByTestId('home-empty');
    expect(empty.textContent).toContain('No calls yet this month.');
    expect(within(empty).getByRole('link', { name: 'playground' }).getAttribute('href')).toBe('/playground');
    expect(within(empty).getByRole('link', { name: 'create an API key' }).getAttribute('href')).toBe('/keys/add');
    expect(screen.getByTestId('home-match-rate').textContent).toBe('—');
    expect(screen.getByTestId('home-cost').textContent).toBe('$0.00');
    expect(screen.getByTestId('home-sparkline-text').textContent).toBe('No requests in the last 30 days.');
  });

  it('refetches the figures and the keys when the socket says a call was made', async () => {
    await open(user(7, 'user'), { totals: totals({ requests: 3 }) });
    expect(screen.getByTestId('home-requests').textContent).toBe('3');
    const before = { totals: asked('/v2/usage/totals').length, keys: asked('/v2/keys').length };
    answer({ totals: totals({ requests: 4 }), keys: [key('k1', 7, '2026-06-02T10:00:00Z')] });
    act(() => useStore.getState().merge({ usage: { 7: { id: 7, lastCallAt: new Date().toISOString() } } }));
    await waitFor(() => expect(screen.getByTestId('home-requests').textContent).toBe('4'));
    expect(asked('/v2/usage/totals').length).toBe(before.totals + 1);
    expect(asked('/v2/usage/series').length).toBe(before.totals + 1);
    expect(asked('/v2/keys').length).toBe(before.keys + 1);
    await screen.findByRole('link', { name: /Key k1/ });
  });
});

describe('home page scope', () => {
  const params = (path: string) => Object.fromEntries(asked(path).at(-1)!.searchParams);

  it('asks for a user’s own usage, this month and the last 30 days, in the browser’s time zone', async () => {
    await open(user(7, 'user'));
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date();
    const month = params('/v2/usage/totals');
    expect(month).toMatchObject({ userId: '7', tz, from: monthStart(now).toISOString() });
    expect(month.organizationId).toBeUndefined();
    expect(Date.parse(month.to!)).toBeGreaterThan(Date.parse(month.from!));
    expect(params('/v2/usage/series')).toMatchObject({
      userId: '7',
      tz,
      interval: 'day',
      metric: 'requests',
      from: daysStart(now, 30).toISOString(),
    });
    expect(asked('/v2/contracts')).toHaveLength(1);
  });

  it('asks for an administrator’s organization', async () => {
    await open({ ...user(8, 'admin'), organizationName: 'Acme' });
    for (const path of ['/v2/usage/totals', '/v2/usage/series']) {
      expect(params(path).organizationId).toBe('3');
      expect(params(path).userId).toBeUndefined();
    }
    expect(screen.getByText(/calls by everyone in Acme\./)).toBeTruthy();
  });

  it('asks super and root for everyone’s usage, and does not compare it with one contract', async () => {
    for (const role of ['super', 'root'] as const) {
      await open(user(9, role, null));
      for (const path of ['/v2/usage/totals', '/v2/usage/series']) {
        expect(params(path).organizationId).toBeUndefined();
        expect(params(path).userId).toBeUndefined();
      }
      expect(asked('/v2/contracts')).toHaveLength(0);
      expect(screen.getByTestId('limit-text').textContent).toMatch(/Monthly limits are set per organization/);
      expect(screen.queryByRole('progressbar')).toBeNull();
      urls = [];
      useStore.setState({ areas: {} });
      cleanup();
    }
  });
});

describe('home page lists', () => {
  it('lists the user’s own keys by last use, at most five, each linking to its page', async () => {
    const keys = [
      key('old', 7, '2026-06-01T10:00:00Z'),
      key('never', 7, null),
      key('new', 7, '2026-06-03T10:59:30Z'),
      key('other', 99, '2026-06-04T10:00:00Z'),
      key('k4', 7, '2026-05-01T10:00:00Z'),
      key('k5', 7, '2026-05-02T10:00:00Z'),
      key('k6', 7, '2026-05-03T10:00:00Z'),
    ];
    await open(user(7, 'user'), { keys });
    const list = await screen.findByTestId('home-keys-list');
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/keys/new',
      '/keys/old',
      '/keys/k6',
      '/keys/k5',
      '/keys/k4',
    ]);
    expect(links[0]!.textContent).toContain('3 calls this month');
    expect(links[0]!.textContent).toMatch(/Last used \d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2}(am|pm)/);
    // The time of the last call to the minute, not its hour (issue 31).
    expect(links[0]!.textContent).toContain(`Last used ${formatDate('2026-06-03T10:59:30Z')}`);
    expect(links[0]!.textContent).toMatch(/:59(am|pm)/);
  });

  it('links to making a first key when the user has none', async () => {
    await open(user(7, 'user'), { keys: [key('theirs', 99, null)] });
    const empty = await screen.findByTestId('home-keys-empty');
    expect(within(empty).getByRole('link', { name: 'Create your first key' }).getAttribute('href')).toBe('/keys/add');
  });

  it('lists the five most recently edited templates', async () => {
    const templates = [1, 2, 3, 4, 5, 6].map((id) => template(id, `2026-06-0${id}T12:00:00Z`));
    await open(user(7, 'user'), { templates });
    const list = await screen.findByTestId('home-templates-list');
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/templates/6', '/templates/5', '/templates/4', '/templates/3', '/templates/2']);
  });

  it('keeps the quick links the menu allows', async () => {
    await open(user(7, 'user'));
    const links = within(screen.getByRole('region', { name: 'Quick links' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toContain('/usage');
    expect(links.map((a) => a.getAttribute('href'))).not.toContain('/sessions');
  });
});

describe('home page pure parts', () => {
  it('finds the contract in force as billing does', () => {
    const now = Date.parse('2026-06-15T00:00:00Z');
    const old = contract({ id: 1, startsAt: '2025-01-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' });
    const later = contract({ id: 2, startsAt: '2026-01-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' });
    const future = contract({ id: 3, startsAt: '2026-07-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' });
    expect(contractInForce([old, later, future], 3, now)?.id).toBe(2);
    expect(contractInForce([old, { ...later, status: 'suspended' }], 3, now)).toBeNull();
    expect(contractInForce([{ ...old, endsAt: '2026-06-01T00:00:00Z' }], 3, now)).toBeNull();
    expect(contractInForce([old], 4, now)).toBeNull();
    expect(contractInForce([old], null, now)).toBeNull();
  });

  it('words shares, lists and series', () => {
    expect(percentText(12.34, 500)).toBe('2 %');
    expect(percentText(0.5, 500)).toBe('<1 %');
    expect(percentText(0, 500)).toBe('0 %');
    expect(percentText(499.99, 500)).toBe('99 %');
    expect(percentText(600, 500)).toBe('120 %');
    expect(recentTemplates(undefined)).toEqual([]);
    expect(recentKeys({ a: key('a', 7, null, { deletedAt: '2026-01-01T00:00:00Z' }) as KeyEntry }, 7)).toEqual([]);
    expect(sparklineText(days([0, 1, 0]))).toBe('1 request in the last 30 days; the busiest day was 6/2/26 with 1.');
    expect(sparklineText(days([1200, 30]))).toBe(
      '1,230 requests in the last 30 days; the busiest day was 6/1/26 with 1,200.',
    );
  });
});
