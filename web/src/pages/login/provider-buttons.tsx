/**
 * Spec §2: the outside identity providers, each a plain link to /oauth/{provider id}; only those set up on this
 * server (GET /auth/providers, issue 32), and none, with no 'or' divider, when none is. Each logo is drawn in a
 * colour that reaches 3:1 against the page in both themes (WCAG 1.4.11): the brand's own on light paper, its
 * dark-mode form on dark paper (GitHub's and Microsoft's black marks turn white, LinkedIn's blue lightens).
 */

import type { SvgIconComponent } from '@mui/icons-material';
import GitHub from '@mui/icons-material/GitHub';
import Google from '@mui/icons-material/Google';
import LinkedIn from '@mui/icons-material/LinkedIn';
import Microsoft from '@mui/icons-material/Microsoft';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import {
  findProvider,
  type IdentityProvider,
  PROVIDERS_PATH,
  type ProviderId,
  providerHref,
} from '@tessera/common/providers';
import { useEffect, useState } from 'react';
import { request } from '../../lib/api';

const PROVIDER_ICONS: Record<string, SvgIconComponent> = {
  google: Google,
  microsoft: Microsoft,
  github: GitHub,
  linkedin: LinkedIn,
};

/** The logos' colours on dark paper: the brands' dark-mode marks. */
export const DARK_MODE_COLOURS: Record<ProviderId, string> = {
  google: '#4285f4',
  microsoft: '#ffffff',
  github: '#f0f6fc',
  linkedin: '#70b5f9',
};

export function logoColour(provider: IdentityProvider, mode: Theme['palette']['mode']): string {
  return mode === 'dark' ? DARK_MODE_COLOURS[provider.id] : provider.colour;
}

/** The providers this server has set up, in the spec's order; null until the server has said. */
function useConfiguredProviders(): IdentityProvider[] | null {
  const [providers, setProviders] = useState<IdentityProvider[] | null>(null);
  useEffect(() => {
    let live = true;
    request<{ providers: { id: string }[] }>('GET', PROVIDERS_PATH, { merge: false, claim: () => true })
      .then((reply) => {
        const found = reply.providers.map((p) => findProvider(p.id)).filter((p) => p !== undefined);
        if (live) setProviders(found);
      })
      // Without an answer no button is shown: one that could only fail helps nobody.
      .catch(() => live && setProviders([]));
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** The 'or' divider and a button per configured provider; nothing at all when none is configured. */
export function ProviderButtons({ verb }: { verb: 'Sign in with' | 'Sign up with' }) {
  const providers = useConfiguredProviders();
  if (!providers?.length) return null;
  return (
    <>
      <Divider sx={{ my: 3 }}>or</Divider>
      <Stack spacing={1} data-testid="provider-buttons">
        {providers.map((provider) => {
          const Icon = PROVIDER_ICONS[provider.icon];
          return (
            <Button
              key={provider.id}
              variant="outlined"
              href={providerHref(provider.id)}
              startIcon={
                Icon ? <Icon sx={{ color: (theme) => logoColour(provider, theme.palette.mode) }} /> : undefined
              }
              sx={{ justifyContent: 'flex-start', color: 'text.primary', borderColor: 'divider' }}
            >
              {verb} {provider.name}
            </Button>
          );
        })}
      </Stack>
    </>
  );
}
