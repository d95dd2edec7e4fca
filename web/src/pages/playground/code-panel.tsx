/**
 * Code samples of the exact current request, with a copy button, and a choice of the user's own keys whose id then
 * stands in the code (issue 31) in place of YOUR_API_KEY, its secret left as YOUR_SECRET to paste. The chosen language is remembered in the local
 * settings' `language` (spec §3 code-sample languages); curl is offered beside them for this page only.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { KeyEntry } from '@tessera/common/key-settings';
import { hasRank } from '@tessera/common/roles';
import { CODE_LANGUAGES, type CodeLanguage } from '@tessera/common/settings';
import { useMemo, useState } from 'react';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import {
  KEY_PLACEHOLDER,
  SAMPLE_LANGUAGES,
  type SampleLanguage,
  type SampleRequest,
  SECRET_PLACEHOLDER,
  sampleCode,
} from './code-samples';

/**
 * The signed-in user's live keys, newest first, to put one's id in the code. The list is fetched for users and
 * administrators (their own or their organization's keys); staff, whose list is every key there is, choose among
 * those the console has loaded already.
 */
function useOwnKeys(): KeyEntry[] {
  const self = useStore((s) => s.self);
  const keys = useStore((s) => s.areas.keys as Record<string, KeyEntry> | undefined);
  useFetch(self.id === 0 || hasRank(self.role, 'super') ? null : '/v2/keys');
  return useMemo(
    () =>
      Object.values(keys ?? {})
        .filter((k) => k.userId === self.id && !k.deletedAt && k.mode !== 'test')
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    [keys, self.id],
  );
}

export function CodePanel({ request }: { request: SampleRequest }) {
  const ownKeys = useOwnKeys();
  const [keyId, setKeyId] = useState('');
  const chosen = ownKeys.find((k) => k.id === keyId);
  const stored = useSettings((s) => s.language);
  const update = useSettings((s) => s.update);
  const [curl, setCurl] = useState(false);
  const [copied, setCopied] = useState(false);
  const language: SampleLanguage = curl
    ? 'curl'
    : (CODE_LANGUAGES as readonly string[]).includes(stored)
      ? stored
      : 'JavaScript';
  // A chosen key's id goes in; its secret was shown once, so the developer pastes it in place of YOUR_SECRET.
  const code = sampleCode(language, chosen ? { ...request, apiKey: `${chosen.id}${SECRET_PLACEHOLDER}` } : request);
  const choose = (next: SampleLanguage) => {
    setCopied(false);
    setCurl(next === 'curl');
    if (next !== 'curl') update({ language: next as CodeLanguage });
  };
  return (
    <Box sx={{ mt: 3, minWidth: 0 }} data-testid="code-samples">
      <Typography variant="h6" component="h2">
        Code
      </Typography>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Tabs
          value={language}
          onChange={(_, v: SampleLanguage) => choose(v)}
          aria-label="Code sample language"
          variant="scrollable"
          scrollButtons={false}
          sx={{ minWidth: 0, flex: '1 1 auto' }}
        >
          {SAMPLE_LANGUAGES.map((l) => (
            <Tab key={l} value={l} label={l} id={`sample-tab-${l}`} aria-controls="sample-code" />
          ))}
        </Tabs>
        {ownKeys.length > 0 && (
          <TextField
            select
            size="small"
            label="Key"
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{KEY_PLACEHOLDER}</MenuItem>
            {ownKeys.map((k) => (
              <MenuItem key={k.id} value={k.id}>
                {k.name} (…{k.lastFour})
              </MenuItem>
            ))}
          </TextField>
        )}
        <Button
          size="small"
          startIcon={<ContentCopyIcon />}
          onClick={() => {
            void navigator.clipboard?.writeText(code).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Stack>
      <Box
        component="pre"
        id="sample-code"
        role="tabpanel"
        aria-labelledby={`sample-tab-${language}`}
        tabIndex={0}
        data-testid="sample-code"
        sx={{
          m: 0,
          p: 1.5,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: 13,
          overflowX: 'auto',
          maxWidth: '100%',
        }}
      >
        {code}
      </Box>
    </Box>
  );
}
