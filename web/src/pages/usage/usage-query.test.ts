import { describe, expect, it } from 'vitest';
import { defaultWho, parseUsageState, rangeStart, reportQuery, usageSearch, whoQuery } from './usage-query';

const self = { id: 7, organizationId: 3 };

describe('usage page state', () => {
  it("starts at the spec's defaults: chart, a month, by day, requests, any method and path", () => {
    const state = parseUsageState(new URLSearchParams(), 'me', 100);
    expect(state).toEqual({
      widget: 'chart',
      range: 'month',
      from: '',
      to: '',
      interval: 'day',
      metric: 'requests',
      who: 'me',
      method: '*',
      path: '*',
      key: '',
      sort: '-at',
      pageSize: 100,
      columns: [],
    });
    expect(usageSearch(state, 'me', 100).toString()).toBe('');
  });

  it('round-trips every choice through the query string and ignores what it does not know', () => {
    const search = new URLSearchParams(
      'widget=calls&range=custom&from=2026-10-01T00:00:00.000Z&to=2026-10-08T00:00:00.000Z&interval=hour&metric=cost&who=user:12&method=POST&path=/byPii&key=Ab12Cd34Ef56Gh78&sort=-identities&pageSize=250&columns=key,emails,hats,phones',
    );
    const state = parseUsageState(search, 'me', 100);
    expect(state).toMatchObject({
      widget: 'calls',
      range: 'custom',
      who: 'user:12',
      key: 'Ab12Cd34Ef56Gh78',
      pageSize: 250,
      columns: ['key', 'emails', 'phones'],
    });
    expect(parseUsageState(usageSearch(state, 'me', 100), 'me', 100)).toEqual(state);
    const junk = parseUsageState(
      new URLSearchParams('range=eon&metric=hats&who=../x&pageSize=7&path=/x&key=../../keys'),
      'organization',
      25,
    );
    expect(junk).toMatchObject({
      range: 'month',
      metric: 'requests',
      who: 'organization',
      pageSize: 25,
      path: '*',
      key: '',
    });
  });

  it('drops a custom range from the query string when a preset is chosen', () => {
    const state = parseUsageState(new URLSearchParams('range=custom&from=2026-10-01T00:00:00.000Z'), 'me', 100);
    expect(usageSearch({ ...state, range: 'week' }, 'me', 100).toString()).toBe('range=week');
  });

  it('makes preset ranges that end now', () => {
    const now = new Date(2026, 10, 25, 12, 0, 0);
    expect(rangeStart('day', now)).toEqual(new Date(2026, 10, 24, 12));
    expect(rangeStart('week', now)).toEqual(new Date(2026, 10, 18, 12));
    expect(rangeStart('month', now)).toEqual(new Date(2026, 9, 25, 12));
    expect(rangeStart('quarter', now)).toEqual(new Date(2026, 7, 25, 12));
    expect(rangeStart('year', now)).toEqual(new Date(2025, 10, 25, 12));
  });

  it('turns who into the API filters', () => {
    expect(whoQuery('me', self)).toEqual({ userId: 7 });
    expect(whoQuery('organization', self)).toEqual({ organizationId: 3 });
    expect(whoQuery('organization', { id: 7, organizationId: null })).toEqual({ userId: 7 });
    expect(whoQuery('all', self)).toEqual({});
    expect(whoQuery('user:12', self)).toEqual({ userId: 12 });
    expect(whoQuery('organization:9', self)).toEqual({ organizationId: 9 });
  });

  it('sends the range, zone and filters, leaving out the wildcards', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const state = parseUsageState(
      new URLSearchParams('range=custom&from=2026-11-01T00:00:00.000Z&method=GET&key=Ab12Cd34Ef56Gh78'),
      'me',
      100,
    );
    expect(reportQuery(state, self, now, 'America/New_York')).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-25T12:00:00.000Z',
      tz: 'America/New_York',
      userId: 7,
      method: 'GET',
      keyId: 'Ab12Cd34Ef56Gh78',
    });
  });

  it('shows administrators their organization and super+ everyone first', () => {
    expect(defaultWho('user', 3)).toBe('me');
    expect(defaultWho('admin', 3)).toBe('organization');
    expect(defaultWho('admin', null)).toBe('me');
    expect(defaultWho('super', 3)).toBe('all');
    expect(defaultWho('root', null)).toBe('all');
  });
});
