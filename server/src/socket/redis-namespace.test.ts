/** The deployment's Redis namespace: REDIS_NAMESPACE, or derived from the database it runs on (decision 0019). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { redisPlace } from '../runtime';
import { testDatabase } from '../test/harness';
import { databaseIdentity, deploymentNamespace, namespaceOf, redisName } from './redis-namespace';

describe('deployment namespace', () => {
  it('is the same every time for one database: the cluster, the database name and an id stored on first start', async () => {
    const database = await testDatabase();
    const identity = await databaseIdentity(database);
    expect(identity.systemIdentifier).toMatch(/^\d+$/);
    expect(identity.databaseName).not.toBe('');
    expect(identity.deploymentId).toMatch(/^[0-9a-f]{32}$/);
    expect(await databaseIdentity(database)).toEqual(identity);
    const namespace = await deploymentNamespace(database);
    expect(namespace).toMatch(/^[0-9a-f]{16}$/);
    expect(await deploymentNamespace(database)).toBe(namespace);
  });

  it('differs when any part differs: another cluster, another database on one server, another stored id', () => {
    const base = { systemIdentifier: '7311111111111111111', databaseName: 'tessera', deploymentId: 'a'.repeat(32) };
    const names = new Set([
      namespaceOf(base),
      namespaceOf({ ...base, systemIdentifier: '7322222222222222222' }), // a dump restored elsewhere
      namespaceOf({ ...base, databaseName: 'tessera_staging' }), // a copy beside it on the same server
      namespaceOf({ ...base, deploymentId: 'b'.repeat(32) }), // another PGlite directory
      namespaceOf({ ...base, systemIdentifier: null }),
    ]);
    expect(names.size).toBe(5);
  });

  it('prefixes every name with tessera and the namespace', () => {
    expect(redisName({ url: 'redis://x', namespace: 'prod-eu' }, 'rate', 'key:1', 60000, 7)).toBe(
      'tessera:prod-eu:rate:key:1:60000:7',
    );
  });
});

describe('REDIS_NAMESPACE', () => {
  it('is unset by default and kept when it is letters, digits, dots, dashes and underscores', () => {
    expect(loadConfig({}).redisNamespace).toBeNull();
    expect(loadConfig({ REDIS_NAMESPACE: ' ' }).redisNamespace).toBeNull();
    expect(loadConfig({ REDIS_NAMESPACE: 'prod-eu.1_a' }).redisNamespace).toBe('prod-eu.1_a');
  });

  it('refuses separators, braces, spaces and over 64 characters', () => {
    for (const bad of ['a:b', '{tag}', 'two words', '-lead', 'x'.repeat(65), 'ü']) {
      expect(() => loadConfig({ REDIS_NAMESPACE: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ REDIS_NAMESPACE: bad }), bad).toThrow(/REDIS_NAMESPACE/);
    }
  });

  it('overrides the derived namespace; unset, the database decides and the config keeps it', async () => {
    const database = await testDatabase();
    expect(await redisPlace(loadConfig({}), database)).toBeNull();
    const set = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_NAMESPACE: 'blue' });
    expect(await redisPlace(set, database)).toEqual({ url: 'redis://127.0.0.1:6379', namespace: 'blue' });
    const derived = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    const place = await redisPlace(derived, database);
    expect(place?.namespace).toBe(await deploymentNamespace(database));
    expect(derived.redisNamespace).toBe(place?.namespace);
  });
});
