/**
 * Client Libraries (/client, public; issue 17): for JavaScript, Python and Java, the package this server offers
 * (built from clients/ by scripts/build-clients.mjs), the command that installs it (JavaScript in the package
 * manager chosen in settings), the first example as its test suite runs it, how to run it, and its README. The
 * language tab is the settings' code-sample language.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type ClientPackage, clientPackagePath } from '@tessera/common/client-packages';
import { formatBytes } from '@tessera/common/constants';
import { presentedKey } from '@tessera/common/keys';
import { hasRank } from '@tessera/common/roles';
import { CODE_LANGUAGES, type CodeLanguage, PACKAGE_MANAGERS } from '@tessera/common/settings';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { api } from '../../lib/api';
import { KEYS_PATH, secretCall } from '../../lib/new-key';
import { useSamples } from '../../lib/samples';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { CodeBlock } from './code-block';
import { FIRST_EXAMPLE } from './examples';
import { EXAMPLE_FILE, installCommand, LANGUAGE_OF, type PackageManager, runCommands } from './install';

const REQUIRES: Record<CodeLanguage, string> = {
  JavaScript: 'Node.js 20 or later, or a browser; no dependencies. ESM and CommonJS, with TypeScript types.',
  Python: 'Python 3.9 or later; the standard library only. Typed (py.typed).',
  Java: 'Java 17 or later; java.net.http only, no dependencies.',
};

/**
 * For a signed-in user who may make keys: a test key made for the example, its whole token put in the run
 * commands (shown this once, as on the keys page); for anyone else, where to get one.
 */
function FirstCallKey({ token, onToken }: { token: string | null; onToken: (token: string) => void }) {
  const role = useStore((s) => s.self.role);
  const [busy, setBusy] = useState(false);
  if (token) {
    return (
      <Alert severity="warning" sx={{ mb: 1 }} data-testid="client-key-made">
        A test key was made for this example and is in the commands below. Copy it now: its secret will not be shown
        again. It answers from the sandbox, free of charge.
      </Alert>
    );
  }
  if (!hasRank(role, 'user')) {
    return (
      <Typography variant="body2" sx={{ mb: 1 }}>
        The commands use a test key (made on the keys page, mode Test), which answers from the sandbox: a fixed set of
        synthetic people, the same on every server, free of charge.
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
      <Button
        variant="outlined"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          createTestKey()
            .then((key) => onToken(presentedKey(key.mode, key.id, key.secret)))
            .catch(() => {})
            .finally(() => setBusy(false));
        }}
      >
        Make a test key for this example
      </Button>
      <Typography variant="body2">
        A test key answers from the sandbox (synthetic people, free of charge); its secret is shown only here.
      </Typography>
    </Box>
  );
}

const createTestKey = () => secretCall(KEYS_PATH, { name: 'Client example (test)', mode: 'test' });

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
  // The sandbox's sample finds someone on every server, for a test key: the example answers with a record as written.
  const samples = useSamples('test');
  const [token, setToken] = useState<string | null>(null);
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
            <FirstCallKey token={token} onToken={setToken} />
            <CodeBlock
              label="Run it"
              testId="client-run"
              text={runCommands(code, origin, found.file, { key: token ?? undefined, email: samples?.email })}
            />
          </>
        )}
      </Box>
    </>
  );
}
