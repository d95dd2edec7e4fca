/**
 * Client Libraries (/client, public; issue 17): for JavaScript, Python and Java, the package this server offers
 * (built from clients/ by scripts/build-clients.mjs), the command that installs it (JavaScript in the package
 * manager chosen in settings), the first example as its test suite runs it, how to run it, and its README. The
 * language tab is the settings' code-sample language.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type ClientPackage, clientPackagePath } from '@tessera/common/client-packages';
import { formatBytes } from '@tessera/common/constants';
import { CODE_LANGUAGES, type CodeLanguage, PACKAGE_MANAGERS } from '@tessera/common/settings';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { api } from '../../lib/api';
import { useSettings } from '../../lib/settings';
import { PageHeading } from '../page-heading';
import { CodeBlock } from './code-block';
import { FIRST_EXAMPLE } from './examples';
import { EXAMPLE_FILE, installCommand, LANGUAGE_OF, type PackageManager, runCommands } from './install';

const REQUIRES: Record<CodeLanguage, string> = {
  JavaScript: 'Node.js 20 or later, or a browser; no dependencies. ESM and CommonJS, with TypeScript types.',
  Python: 'Python 3.9 or later; the standard library only. Typed (py.typed).',
  Java: 'Java 17 or later; java.net.http only, no dependencies.',
};

export default function ClientLibrariesPage() {
  const language = useSettings((s) => s.language);
  const packageManager = useSettings((s) => s.packageManager);
  const update = useSettings((s) => s.update);
  const [packages, setPackages] = useState<ClientPackage[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api
      .get<{ clientPackages: ClientPackage[] }>('/v2/clients')
      .then((r) => setPackages(r.clientPackages))
      .catch(() => setFailed(true));
  }, []);
  const origin = window.location.origin;
  const code = LANGUAGE_OF[language];
  const found = packages?.find((p) => p.language === code);
  return (
    <>
      <PageHeading>Client Libraries</PageHeading>
      <Typography sx={{ mb: 2 }}>
        Clients for the Tessera API in three languages: the ten lookups, single and batch, CSV uploads streamed back,
        plain, signed and legacy keys, retries on 429 and 503 that honour Retry-After, idempotency keys and typed
        errors. Make a key on the{' '}
        <Link component={RouterLink} to="/keys/add" color="primary">
          keys page
        </Link>
        , and try requests first in the{' '}
        <Link component={RouterLink} to="/playground" color="primary">
          playground
        </Link>
        .
      </Typography>
      <Tabs
        value={language}
        onChange={(_, next: CodeLanguage) => update({ language: next })}
        aria-label="Language"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {CODE_LANGUAGES.map((l) => (
          <Tab key={l} value={l} label={l} id={`client-tab-${l}`} aria-controls="client-panel" />
        ))}
      </Tabs>
      <Box id="client-panel" role="tabpanel" aria-labelledby={`client-tab-${language}`} data-testid="client-panel">
        <Typography sx={{ mb: 2 }}>{REQUIRES[language]}</Typography>
        {failed && <Alert severity="error">The list of packages could not be loaded. Please reload the page.</Alert>}
        {!failed && packages === null && <CircularProgress aria-label="Loading the packages" />}
        {packages !== null && !found?.file && (
          <Alert severity="warning" data-testid="client-missing">
            The {language} package is not built on this server
            {found?.missing ? ` (${found.missing})` : ''}. It is built from the repository's clients folder by npm run
            build.
          </Alert>
        )}
        {found?.file && (
          <>
            <Typography sx={{ mb: 2, overflowWrap: 'anywhere' }} data-testid="client-version">
              Version {found.version}: {found.file}
              {found.bytes !== undefined ? `, ${formatBytes(found.bytes)}` : ''}
              {found.sha256 ? `, SHA-256 ${found.sha256}` : ''}.{' '}
              {found.readme && (
                <Link href={clientPackagePath(found.readme)} color="primary">
                  Read its README
                </Link>
              )}
            </Typography>
            {language === 'JavaScript' && (
              <ToggleButtonGroup
                exclusive
                size="small"
                value={packageManager}
                onChange={(_, next: PackageManager | null) => next && update({ packageManager: next })}
                aria-label="Package manager"
                sx={{ mb: 1 }}
              >
                {PACKAGE_MANAGERS.map((m) => (
                  <ToggleButton key={m} value={m}>
                    {m}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            )}
            <CodeBlock
              label="Install"
              testId="client-install"
              text={installCommand(code, origin, found.file, packageManager)}
            />
            <CodeBlock label={`First call: ${EXAMPLE_FILE[code]}`} testId="client-example" text={FIRST_EXAMPLE[code]} />
            <CodeBlock label="Run it" testId="client-run" text={runCommands(code, origin, found.file)} />
          </>
        )}
      </Box>
    </>
  );
}
