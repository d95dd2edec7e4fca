/** Console authentication endpoints both sides name. */
export const AUTH_PATHS = {
  login: '/auth/login',
  logout: '/auth/logout',
  self: '/v2/self',
  /** DELETE ends an impersonation and restores the real user (the accounts work adds starting one). */
  impersonation: '/auth/impersonation',
} as const;
