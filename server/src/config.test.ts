import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('serves the console build its folder links to at start, so a later build does not change it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-static-'));
    mkdirSync(path.join(dir, 'build-1'));
    symlinkSync('build-1', path.join(dir, 'dist'));
    expect(loadConfig({ STATIC_DIR: path.join(dir, 'dist') }).staticDir).toBe(realpathSync(path.join(dir, 'build-1')));
    expect(loadConfig({ STATIC_DIR: path.join(dir, 'missing') }).staticDir).toBe(path.join(dir, 'missing'));
  });

  it('runs embedded with nothing set', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeNull();
    expect(c.redisUrl).toBeNull();
    expect(c.publicUrl.href).toBe('http://localhost:3000/');
    expect(c.dataDir).toMatch(/data$/);
    expect(c.assetPrefix).toBe('');
  });

  it('derives PUBLIC_URL from PORT and treats blank values as unset', () => {
    const c = loadConfig({ PORT: '4100', DATABASE_URL: '  ', REDIS_URL: '', DATA_DIR: ' ' });
    expect(c.publicUrl.origin).toBe('http://localhost:4100');
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeNull();
    expect(c.redisUrl).toBeNull();
  });

  it('turns CDN_HOST into an https asset prefix, and keeps a given scheme', () => {
    expect(loadConfig({ CDN_HOST: 'cdn.tessera.example' }).assetPrefix).toBe('https://cdn.tessera.example');
    expect(loadConfig({ CDN_HOST: 'http://127.0.0.1:9000/static/' }).assetPrefix).toBe('http://127.0.0.1:9000/static');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('runs a process per core on PostgreSQL, one on the embedded database, and refuses a bad WEB_CONCURRENCY', () => {
    const url = 'postgres://tessera@db:5432/tessera';
    expect(loadConfig({ DATABASE_URL: url }).webConcurrency).toBe(availableParallelism());
    expect(loadConfig({ DATABASE_URL: url, WEB_CONCURRENCY: ' 3 ' }).webConcurrency).toBe(3);
    expect(loadConfig({ DATABASE_URL: url, WEB_CONCURRENCY: '' }).webConcurrency).toBe(availableParallelism());
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    for (const bad of ['0', 'abc', '-2', '1.5', '2x', '257']) {
      expect(() => loadConfig({ DATABASE_URL: url, WEB_CONCURRENCY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_URL: url, WEB_CONCURRENCY: bad })).toThrow(
        'Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 256.',
      );
    }
    // The embedded database belongs to one process: asking for more stops the start rather than serving with fewer.
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(/^Invalid configuration: WEB_CONCURRENCY must be 1 on/);
  });

  it('pools PostgreSQL connections in session mode unless DATABASE_POOL_MODE says transaction', () => {
    const url = 'postgres://tessera@pgbouncer:6432/tessera';
    expect(loadConfig({ DATABASE_URL: url }).databasePoolMode).toBe('session');
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'transaction' }).databasePoolMode).toBe('transaction');
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'session' }).databasePoolMode).toBe('session');
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'statement' })).toThrow(
      /^Invalid configuration: DATABASE_POOL_MODE: /,
    );
    // The embedded database has no pool to set: the setting alone is taken for a DATABASE_URL left out.
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'transaction' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'transaction' })).toThrow(/DATABASE_POOL_MODE=transaction needs/);
  });
});
