/** Console authentication endpoints both sides name. */
export const AUTH_PATHS = {
  login: '/auth/login',
  logout: '/auth/logout',
  self: '/v2/self',
  /** PUT ends an impersonation and restores the real user (spec §7). */
  stopImpersonating: '/auth/stopImpersonating',
  /** GET names the staff user behind an impersonating session (issue 32: the impersonation bar). */
  impersonation: '/auth/impersonation',
  /** PUT starts impersonating the user with this id (spec §4, §6). */
  impersonate: (id: number) => `/auth/impersonate/${id}`,
  /** Sign-up and password calls (spec §7; e-mailed links, decision 0005). */
  preapprove: '/auth/preapprove',
  signup: '/auth/signup',
  forgot: '/auth/forgot',
  link: '/auth/link',
  password: (action: 'set' | 'change' | 'reset') => `/auth/password/${action}`,
} as const;
