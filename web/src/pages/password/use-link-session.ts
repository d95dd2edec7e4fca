/**
 * Decision 0005: a set or reset page opened from an e-mailed link (`?token=…`) posts the token to
 * POST /auth/link, which opens a password-only session, and takes the token out of the address bar (history
 * replace) as soon as the page has mounted. The form shows only once the link has answered.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { usePageModel } from '../../app/use-page-model';
import { ApiError, api } from '../../lib/api';
import { refreshUser } from '../../lib/session';
import { useStore } from '../../lib/store';

export type LinkState = { status: 'opening' } | { status: 'open' } | { status: 'failed'; text: string };

/** One exchange per token: a token is spent by its first use, so a remounted page must not post it again. */
const exchanges = new Map<string, Promise<unknown>>();

function openLink(token: string): Promise<unknown> {
  let exchange = exchanges.get(token);
  if (!exchange) {
    exchange = api.post(AUTH_PATHS.link, { token });
    exchanges.set(token, exchange);
  }
  return exchange;
}

/** The API client alerted the failure; the page says it in place, so the alert would only repeat it. */
function dropRepeatedAlert(text: string): void {
  const store = useStore.getState();
  const repeated = store.alerts.find((a) => a.type === 'error' && a.text === text);
  if (repeated) store.closeAlert(repeated.title);
}

/** Without a token, a link's session opened earlier (a reload) still holds: the user is a resetter. */
export function useLinkSession(): LinkState {
  const { search } = useLocation();
  const [, setModel] = usePageModel();
  const role = useStore((s) => s.self.role);
  const [token] = useState(() => new URLSearchParams(search).get('token') ?? '');
  const [state, setState] = useState<LinkState | null>(token ? { status: 'opening' } : null);

  // An effect, not a layout effect: the router hears of the replace only once it has subscribed, which it
  // does in its own layout effect after its children's. Until the link answers, only the spinner shows.
  useEffect(() => {
    if (!token) return;
    const exchange = openLink(token);
    setModel({ token: '' }); // replaces the URL without the token
    let live = true;
    exchange.then(
      () => {
        refreshUser();
        if (live) setState({ status: 'open' });
      },
      (err: unknown) => {
        const text = err instanceof ApiError ? err.message : ACCOUNT_MESSAGES.linkExpired;
        dropRepeatedAlert(text);
        if (live) setState({ status: 'failed', text });
      },
    );
    return () => {
      live = false;
    };
  }, [token, setModel]);

  if (state) return state;
  return role === 'resetter' ? { status: 'open' } : { status: 'failed', text: ACCOUNT_MESSAGES.linkMissing };
}
