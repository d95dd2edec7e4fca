/** Spec §4 session: the user arrives in a readable cookie with its expiry; logout resets to anonymous. */
import { SIGNED_OUT_ALERT } from '@tessera/common/alerts';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { ANONYMOUS_USER, readUser, USER_COOKIE, type User } from '@tessera/common/entities';
import { navigate } from './navigator';
import { useStore } from './store';

export function readUserCookie(cookieString: string = document.cookie): User {
  const pair = cookieString
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${USER_COOKIE}=`));
  if (!pair) return ANONYMOUS_USER;
  try {
    const user = readUser(JSON.parse(decodeURIComponent(pair.slice(USER_COOKIE.length + 1))));
    if (!user || user.expires <= Date.now()) return ANONYMOUS_USER;
    return user;
  } catch {
    return ANONYMOUS_USER;
  }
}

export function clearUserCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the readable user cookie is ours to clear; the session cookie is HttpOnly
  document.cookie = `${USER_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

let expiryTimer: ReturnType<typeof setTimeout> | undefined;
/** This browser signed out on purpose (Sign Out), until someone signs in again. */
let signedOut = false;

export function signedOutByChoice(): boolean {
  return signedOut;
}
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Takes the user from the cookie and arms the logout for when it expires. */
export function refreshUser(): User {
  const user = readUserCookie();
  if (user.id !== 0) signedOut = false;
  useStore.getState().setSelf(user);
  clearTimeout(expiryTimer);
  if (user.expires > 0) {
    const wait = user.expires - Date.now();
    expiryTimer = setTimeout(
      () => {
        if (Date.now() >= user.expires) void logout();
        else refreshUser();
      },
      Math.min(Math.max(0, wait), MAX_TIMER_MS),
    );
  }
  return user;
}

/** Clears the user here without a server call (the server already ended the session). */
export function forgetUser(): void {
  clearTimeout(expiryTimer);
  clearUserCookie();
  useStore.getState().setSelf(ANONYMOUS_USER);
}

/** Spec §4: go to /login, call the logout endpoint, clear cookies and reset to anonymous. */
export async function logout(): Promise<void> {
  // The page being left must not send the visitor to /login?returnTo=itself (see signedOutByChoice).
  signedOut = true;
  navigate('/login');
  forgetUser();
  try {
    await fetch(AUTH_PATHS.logout, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    });
  } catch {
    // Offline: the cookies are already gone here; the server session expires on its own.
  }
}

/** A push of an anonymous self while signed in means the server ended this session. */
export function sessionEndedByServer(): void {
  if (useStore.getState().self.id === 0) return;
  forgetUser();
  useStore.getState().carryAlert(SIGNED_OUT_ALERT);
  navigate('/login');
}
