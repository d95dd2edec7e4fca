/** Session lifetimes. "Remember me" keeps a session at most 30 days; otherwise it ends with the browser. */
export const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
/** A browser session's server-side absolute limit, in case the browser keeps its session cookies. */
export const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often per session. */
export const TOUCH_INTERVAL_MS = 60 * 1000;
/** Idle limits: a session not used for this long has ended (remembered sessions wait longer). */
export const IDLE_MS = 2 * 60 * 60 * 1000;
export const REMEMBERED_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
