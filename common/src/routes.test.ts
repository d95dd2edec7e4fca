import { describe, expect, it } from 'vitest';
import { routeErrorCode } from './errors';
import { documentTitle, isApiPath, isGuardedModule, parseResource, ROUTES, routeTitle } from './routes';

const byPath = (path: string) => ROUTES.find((r) => r.path === path)!;

describe('route table (spec §2)', () => {
  it('has every path of the spec', () => {
    const spec = [
      '/',
      '/playground',
      '/profile',
      '/password/:action',
      '/billing',
      '/segments',
      '/clusters',
      '/query',
      '/ssh',
      '/contracts/:id',
      '/contracts/:action/:id',
      '/releases',
      '/releases/:id',
      '/releases/:action/:id',
      '/deployments',
      '/deployments/:id',
      '/deployments/:action/:id',
      '/sessions',
      '/api',
      '/client',
      '/login',
      '/signup',
      '/terms',
      '/organizations',
      '/organizations/:id',
      '/organizations/:action/:id',
      '/users/:id',
      '/users/:action/:id',
      '/keys/:id',
      '/keys/:action/:id',
      '/templates',
      '/templates/:action',
      '/templates/:action/:id',
      '/usage',
      // Beyond spec §2: the bulk jobs of issue 33 item 3.
      '/jobs',
      // Beyond spec §2: the webhook endpoints of issue 33.
      '/webhooks',
      '/webhooks/:id',
      '/webhooks/:action/:id',
      // Beyond spec §2: the change subscriptions of issue 33 item 2.
      '/subscriptions',
      '/faq',
      '/scoring',
      '/contact',
      '/chat',
      '/error',
      '/error/:code',
      '/error/:code/:message',
    ];
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...spec].sort());
  });

  it('titles pages "Tessera - {page}"', () => {
    expect(documentTitle(routeTitle(byPath('/faq'), {}))).toBe('Tessera - Frequently Asked Questions');
    expect(routeTitle(byPath('/password/:action'), { action: 'reset' })).toBe('Reset Password');
    expect(routeTitle(byPath('/password/:action'), { action: 'set' })).toBe('Set Password');
    expect(routeTitle(byPath('/password/:action'), { action: 'change' })).toBe('Change Password');
    expect(routeTitle(byPath('/error/:code'), { code: '451' })).toBe('Legal Notice');
    expect(routeTitle(byPath('/error/:code'), { code: '418' })).toBe('Error');
    expect(routeTitle(byPath('/error'), {})).toBe('Page Not Found');
  });

  it("titles an error page whose code is unknown or not a number 'Error'", () => {
    for (const code of ['999', '99', 'abc', '404x', ' 404', '-404', '4.04']) {
      expect(routeTitle(byPath('/error/:code'), { code }), code).toBe('Error');
      expect(routeTitle(byPath('/error/:code/:message'), { code, message: 'x' }), code).toBe('Error');
    }
    expect([undefined, '403', '999', '0404', 'abc', ''].map(routeErrorCode)).toEqual([404, 403, 999, 404, null, null]);
  });

  it("titles every page by the spec's page name (issue 32 item 8)", () => {
    const SPEC_NAMES: Record<string, string> = {
      '/organizations': 'Organizations',
      '/organizations/:id': 'Organizations',
      '/organizations/:action/:id': 'Organizations',
      '/templates': 'Templates',
      '/templates/:action': 'Templates',
      '/templates/:action/:id': 'Templates',
      '/users/:id': 'User',
      '/users/:action/:id': 'User',
      '/keys/:id': 'API Key',
      '/keys/:action/:id': 'API Key',
      '/contracts/:id': 'Contract',
      '/contracts/:action/:id': 'Contract',
      '/api': 'API Reference',
      '/client': 'Client Libraries',
      '/login': 'Sign in',
      '/signup': 'Sign Up',
      '/terms': 'Terms of Use',
      '/faq': 'Frequently Asked Questions',
      '/scoring': 'Match Scores Explained',
      '/contact': 'Contact Us',
      '/chat': 'Support Chat',
    };
    for (const [path, name] of Object.entries(SPEC_NAMES)) expect(routeTitle(byPath(path), {}), path).toBe(name);
  });

  it('guards the system pages per spec §6', () => {
    for (const p of ['/releases', '/deployments', '/clusters', '/query', '/ssh']) expect(byPath(p).role).toBe('root');
    for (const p of ['/billing', '/sessions', '/segments']) expect(byPath(p).role).toBe('super');
    for (const p of ['/login', '/signup', '/api', '/faq', '/error']) expect(byPath(p).role).toBe('anonymous');
  });

  it('names modules by their guard', () => {
    for (const r of ROUTES) {
      if (r.role === 'root') expect(r.module).toMatch(/^root-/);
      else if (r.role === 'super') expect(r.module).toMatch(/^super-/);
      else if (['user', 'admin'].includes(r.role)) expect(r.module).toMatch(/^user-/);
      else expect(isGuardedModule(r.module)).toBe(false);
    }
    expect(isGuardedModule('root-ssh')).toBe(false);
  });
});

describe('resource route pattern', () => {
  it.each([
    [['12'], { mode: 'view', ids: [12] }],
    [['3,4,5'], { mode: 'view', ids: [3, 4, 5] }],
    [['add'], { mode: 'create', ids: [] }],
    [['add', 'add'], { mode: 'create', ids: [] }],
    [['add', '7'], { mode: 'create', ids: [7] }],
    [['edit', '7'], { mode: 'edit', ids: [7] }],
    [['publish', '7,8'], { mode: 'publish', ids: [7, 8] }],
    [['delete', '9'], { mode: 'delete', ids: [9] }],
  ])('%j -> %j', (segments, expected) => {
    expect(parseResource(segments[0], segments[1])).toEqual(expected);
  });

  it.each([
    [['abc']],
    [['12a']],
    [['1,,2']],
    [['edit', 'x']],
    [['edit', 'add']],
    [['rename', '1']],
    [['-1']],
    [[undefined]],
  ])('%j is not a resource path', (segments) => {
    expect(parseResource(segments[0] as string | undefined, (segments as string[])[1])).toBeNull();
  });
});

describe('API paths', () => {
  it('tells API paths from console paths', () => {
    for (const p of ['/v2/version', '/v1/identities/byEmail', '/auth/login', '/oauth/google', '/ws', '/healthz']) {
      expect(isApiPath(p)).toBe(true);
    }
    for (const p of ['/v3/identities/byId', '/v0', '/api/v2/identities/byId', '/api/']) expect(isApiPath(p)).toBe(true);
    for (const p of ['/', '/api', '/users/1', '/v2x', '/vx', '/wsx', '/authors', '/apis'])
      expect(isApiPath(p)).toBe(false);
  });
});
