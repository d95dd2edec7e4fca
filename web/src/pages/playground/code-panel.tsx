/**
 * Code samples of the exact current request, with a copy button. The chosen language is remembered in the local
 * settings' `language` (spec §3 code-sample languages); curl is offered beside them for this page only.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { CODE_LANGUAGES, type CodeLanguage } from '@tessera/common/settings';
import { useState } from 'react';
import { useSettings } from '../../lib/settings';
import { SAMPLE_LANGUAGES, type SampleLanguage, type SampleRequest, sampleCode } from './code-samples';

export function CodePanel({ request }: { request: SampleRequest }) {
  const stored = useSettings((s) => s.language);
  const update = useSettings((s) => s.update);
  const [curl, setCurl] = useState(false);
  const [copied, setCopied] = useState(false);
  const language: SampleLanguage = curl
    ? 'curl'
    : (CODE_LANGUAGES as readonly string[]).includes(stored)
      ? stored
      : 'JavaScript';
  const code = sampleCode(language, request);
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
