import { ROUTES } from '@tessera/common/routes';
import { describe, expect, it } from 'vitest';
import { onLoadFailure } from './lazy-page';
import { PAGE_MODULES } from './page-modules';

describe('page modules', () => {
  it('exist for every module of the route table, and each loads a component', async () => {
    const modules = [...new Set(ROUTES.map((r) => r.module))];
    expect(modules.filter((m) => !PAGE_MODULES[m])).toEqual([]);
    for (const module of modules) {
      const loaded = await PAGE_MODULES[module]?.();
      expect(typeof loaded?.default, module).toBe('function');
    }
  });
});

describe('route-load failure (spec §2)', () => {
  const recorder = () => {
    const calls: string[] = [];
    const stored = new Map<string, string>();
    return {
      calls,
      location: { assign: (to: string | URL) => calls.push(`assign ${to}`), reload: () => calls.push('reload') },
      storage: {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
      },
    };
  };

  it('signs out to /login when a user- or super- module fails', () => {
    for (const module of ['user-usage', 'super-billing']) {
      const { calls, location } = recorder();
      onLoadFailure(module, location);
      expect(calls).toEqual(['assign /login']);
    }
  });

  it('reloads the page when any other module fails', () => {
    for (const module of ['root-releases', 'faq', 'login']) {
      const { calls, location, storage } = recorder();
      expect(onLoadFailure(module, location, storage)).toBe(true);
      expect(calls).toEqual(['reload']);
    }
  });

  it('does not reload again within 10 s of its own reload, so a missing chunk cannot loop', () => {
    const { calls, location, storage } = recorder();
    expect(onLoadFailure('faq', location, storage, 1_000_000)).toBe(true);
    expect(onLoadFailure('faq', location, storage, 1_005_000)).toBe(false);
    expect(onLoadFailure('faq', location, storage, 1_020_000)).toBe(true);
    expect(calls).toEqual(['reload', 'reload']);
  });
});
