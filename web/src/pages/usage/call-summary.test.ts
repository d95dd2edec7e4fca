import { emptyMetrics, type UsageCall } from '@tessera/common/usage';
import { describe, expect, it } from 'vitest';
import { callSummary } from './call-summary';

const call = (patch: Partial<UsageCall>): UsageCall => ({
  ...emptyMetrics(),
  id: 1,
  at: '2026-11-02T10:00:00Z',
  userId: 1,
  userName: 'Ada',
  organizationId: 2,
  organizationName: 'Org',
  keyId: null,
  keyName: null,
  method: 'GET',
  path: '/byEmail',
  status: 200,
  cost: 0,
  ...patch,
});

describe('the Metrics column of a call', () => {
  it('names what one call counted, leaving out zeros and inputs', () => {
    const found = call({ inputs: 1, identities: 1, emails: 3, bestMatchScores: 91, milliseconds: 35, cost: 0.02 });
    expect(callSummary(found, ['inputs'])).toEqual([
      'Identities returned 1',
      'emails 3',
      'best match score 91',
      '35 ms',
      '$0.02',
    ]);
  });

  it('says a call found nothing, and leaves out what another column shows', () => {
    expect(callSummary(call({ inputs: 1, milliseconds: 4 }), ['inputs'])).toEqual(['No identities', '4 ms']);
    const found = call({ identities: 2, emails: 1, milliseconds: 4 });
    expect(callSummary(found, ['inputs', 'emails', 'milliseconds'])).toEqual(['Identities returned 2']);
    expect(callSummary(call({}), ['inputs', 'identities'])).toEqual([]);
  });
});
