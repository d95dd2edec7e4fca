/**
 * Theme (spec §3: light by default, following the system until the user picks) and the router. The router's
 * updates are not transitions: a navigation commits at once, so the spec §2 bookkeeping (loading flag, alerts,
 * `hit`) runs when the link is followed, and the spinner shows while a slow page's code is still on its way,
 * instead of the old page lingering until the new one is ready.
 */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { useSettings } from '../lib/settings';
import { router } from './router';
import { buildTheme } from './theme';

export function useDarkMode(): boolean {
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const chosen = useSettings((s) => s.darkMode);
  return chosen ?? systemDark;
}

export function App() {
  const dark = useDarkMode();
  const theme = useMemo(() => buildTheme(dark ? 'dark' : 'light'), [dark]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <RouterProvider router={router} useTransitions={false} />
    </ThemeProvider>
  );
}
