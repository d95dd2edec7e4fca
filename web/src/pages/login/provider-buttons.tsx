/** Spec §2: the four outside identity providers, each a plain link to /oauth/{provider id}. */

import type { SvgIconComponent } from '@mui/icons-material';
import GitHub from '@mui/icons-material/GitHub';
import Google from '@mui/icons-material/Google';
import LinkedIn from '@mui/icons-material/LinkedIn';
import Microsoft from '@mui/icons-material/Microsoft';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { IDENTITY_PROVIDERS, providerHref } from '@tessera/common/providers';

const PROVIDER_ICONS: Record<string, SvgIconComponent> = {
  google: Google,
  microsoft: Microsoft,
  github: GitHub,
  linkedin: LinkedIn,
};

export function ProviderButtons({ verb }: { verb: 'Sign in with' | 'Sign up with' }) {
  return (
    <Stack spacing={1}>
      {IDENTITY_PROVIDERS.map((provider) => {
        const Icon = PROVIDER_ICONS[provider.icon];
        return (
          <Button
            key={provider.id}
            variant="outlined"
            href={providerHref(provider.id)}
            startIcon={Icon ? <Icon sx={{ color: provider.colour }} /> : undefined}
            sx={{ justifyContent: 'flex-start', color: 'text.primary', borderColor: 'divider' }}
          >
            {verb} {provider.name}
          </Button>
        );
      })}
    </Stack>
  );
}
