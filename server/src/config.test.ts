import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    const c = loadConfig({ PORT: '4100', DATABASE_URL: '  ', REDIS_URL: '' });
    expect(c.publicUrl.origin).toBe('http://localhost:4100');
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
});
