/** Console authentication endpoints both sides name. */
export const AUTH_PATHS = {
  login: '/auth/login',
  logout: '/auth/logout',
  self: '/v2/self',
  /** PUT ends an impersonation and restores the real user (spec §7). */
  stopImpersonating: '/auth/stopImpersonating',
} as const;
