/** Spec §3 theme palette. */
export const PALETTE = {
  primary: '#77933c',
  secondary: '#63a184',
  error: '#d32f2f',
  warning: '#ed6c02',
  info: '#0288d1',
  success: '#2e7d32',
} as const;

export type ThemeMode = 'light' | 'dark';
export const DEFAULT_THEME_MODE: ThemeMode = 'light';
