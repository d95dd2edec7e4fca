/**
 * Shared by the page tests: a fake of the network at `fetch` that answers by method and path with real
 * Response objects, the signed-in user, and rendering inside a router with the shell's dialog area and alerts.
 */
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import type { Role } from '@tessera/common/roles';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { AlertStack } from '../app/shell/alert-stack';
import DialogArea from '../app/shell/dialog-area';
import { setNavigator } from '../lib/navigator';
import { useStore } from '../lib/store';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Each call's request headers, names in lower case (apart from Call, so comparisons of calls stay as they were). */
const sentHeaders = new WeakMap<Call, Record<string, string>>();

type Handler = (call: Call) => { status?: number; body: unknown };

export const network = {
  calls: [] as Call[],
  went: [] as string[],
  handlers: new Map<string, Handler>(),
  /** The headers a call was sent with, names in lower case. */
  headersOf(call: Call | undefined): Record<string, string> {
    return (call && sentHeaders.get(call)) ?? {};
  },
  /** Answers `METHOD /path` (query string excluded) with a status and JSON body. */
  on(route: string, reply: Handler | { status?: number; body: unknown }): void {
    this.handlers.set(route, typeof reply === 'function' ? reply : () => reply);
  },
};

export function user(id: number, role: Role, organizationId: number | null = 3): User {
  return { ...ANONYMOUS_USER, id, role, organizationId, name: `User ${id}`, email: `u${id}@acme.test`, expires: 1 };
}

export function signIn(self: User): void {
  useStore.setState({ self });
}

export function setupPageTests(): void {
  beforeEach(() => {
    network.calls = [];
    network.went = [];
    network.handlers.clear();
    setNavigator((to) => network.went.push(to));
    useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [], carriedAlerts: [], dialog: null, model: {} });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://localhost').pathname;
      const call = {
        method: init.method ?? 'GET',
        path,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      sentHeaders.set(call, Object.fromEntries(new Headers(init.headers).entries()));
      network.calls.push(call);
      const handler = network.handlers.get(`${call.method} ${path}`);
      const reply = handler ? handler(call) : { status: 404, body: { error: 'Not Found' } };
      return new Response(JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** Shows where the router is, so a test sees a page's <Navigate>. */
function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Renders a page as the shell would: inside a router, beside the alert stack and the dialog area. */
export function renderPage(page: ReactNode, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AlertStack />
      {page}
      <DialogArea />
      <LocationProbe />
    </MemoryRouter>,
  );
}
