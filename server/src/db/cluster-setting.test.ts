/** The CLUSTERS setting: both spellings, and a clear refusal of each mistake. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { parseClusters } from './cluster-setting';

describe('CLUSTERS', () => {
  it('reads name=URL pairs, a URL with commas in it, and JSON', () => {
    expect(parseClusters(undefined)).toEqual({});
    expect(parseClusters('replica1=postgres://a@h1/db, replica2=postgresql://b@h1,h2/db')).toEqual({
      replica1: 'postgres://a@h1/db',
      replica2: 'postgresql://b@h1,h2/db',
    });
    expect(parseClusters('{"eu": "postgres://x@eu/db"}')).toEqual({ eu: 'postgres://x@eu/db' });
  });

  it.each([
    ['main=postgres://a/db', "'main' is the main database's name"],
    ['Replica=postgres://a/db', "'Replica' is not a valid name"],
    ['r1=mysql://a/db', "the URL of 'r1' must start with postgres://"],
    ['r1=postgres://a/db,r1=postgres://b/db', "'r1' is named twice"],
    ['{"r1": 5}', "the URL of 'r1' must start with postgres://"],
    ['{nope', 'not valid JSON'],
    ['justtext', "'justtext' is not name=URL"],
  ])('refuses %s', (value, message) => {
    expect(() => loadConfig({ CLUSTERS: value })).toThrow(message);
  });
});
