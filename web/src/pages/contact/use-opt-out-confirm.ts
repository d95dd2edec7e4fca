/**
 * The opt-out link lands on /contact#opt-out={token}: the token is taken out of the address at once (it stays out
 * of history, logs and page views) and confirmed; the outcome is an alert (an error one comes from the API client).
 * Also when the link is followed in a tab already showing the page (only the fragment changes).
 */
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';

const PREFIX = '#opt-out=';

function confirmFromAddress(): void {
  const { hash, pathname, search } = window.location;
  if (!hash.startsWith(PREFIX)) return;
  let token = hash.slice(PREFIX.length);
  try {
    token = decodeURIComponent(token);
  } catch {
    // A mangled link: sent as it is, the server answers that it is not valid.
  }
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  if (!token) return;
  api
    .post<{ optOutConfirmed?: { summary?: string } }>('/v2/opt-out/confirm', { token })
    .then((reply) =>
      useStore.getState().addAlert({
        type: 'success',
        title: STEWARDSHIP_MESSAGES.optOutDoneTitle,
        // What was and was not left out, in the server's words (issue 28 finding 2); the general text otherwise.
        text: reply?.optOutConfirmed?.summary || STEWARDSHIP_MESSAGES.optOutDoneText,
      }),
    )
    .catch(() => {
      // The API client has shown the error.
    });
}

export function useOptOutConfirm(): void {
  useEffect(() => {
    confirmFromAddress();
    window.addEventListener('hashchange', confirmFromAddress);
    return () => window.removeEventListener('hashchange', confirmFromAddress);
  }, []);
}
