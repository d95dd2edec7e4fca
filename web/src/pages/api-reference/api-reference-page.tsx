/**
 * API Reference (/api, public; issue 17): the OpenAPI document this server publishes at /v2/openapi.json, rendered
 * by RapiDoc (decision 0030), loaded only on this page. It follows the console's theme with colours that meet WCAG
 * 2.1 AA and loads no fonts or anything else from another host. Its "Try" is off: RapiDoc's request forms have no
 * labels (WCAG 1.3.1, 4.1.2), and calls are tried in the playground, on this server only. The page reads the
 * document itself and hands RapiDoc a copy with its examples where RapiDoc can read them (renderer-examples.ts).
 */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import { rgbToHex, useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { textShade } from '../../app/theme';
import { request } from '../../lib/api';
import { useLoads } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { PageHeading } from '../page-heading';
import type { RapiDocElement } from './rapi-doc';
import { forRapiDoc } from './renderer-examples';

export const OPENAPI_PATH = '/v2/openapi.json';

/**
 * RapiDoc's own text colours, overridden on its element (outer styles win over its :host rules) with shades that
 * reach 4.5:1 on its background in each theme: its defaults (#47afe8 links, #f06560 red text) do not.
 */
const RAPIDOC_COLOURS = {
  light: {
    '--red': '#c62828',
    '--blue': '#1565c0',
    '--green': '#2e7d32',
    '--orange': '#a84300',
    '--purple': '#6a1b9a',
    '--light-fg': '#555555',
    '--fg2': '#333333',
    '--fg3': '#444444',
    '--placeholder-color': '#666666',
    '--inline-code-fg': '#a31515',
  },
  dark: {
    '--red': '#ff8a80',
    '--blue': '#82b1ff',
    '--green': '#81c784',
    '--orange': '#ffb74d',
    '--purple': '#ce93d8',
    '--light-fg': '#bdbdbd',
    '--fg2': '#e0e0e0',
    '--fg3': '#d0d0d0',
    '--placeholder-color': '#a0a0a0',
    '--inline-code-fg': '#ffab91',
  },
} as const;

const hex = (color: string) => (color.startsWith('#') ? color : rgbToHex(color)).slice(0, 7);

export default function ApiReferencePage() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [spec, setSpec] = useState<unknown>(null);
  const { track, ...loads } = useLoads();
  const load = useCallback(() => {
    // RapiDoc's code and the document, together: the element renders once both are here.
    track(Promise.all([import('rapidoc'), request('GET', OPENAPI_PATH, { merge: false })])).then(
      ([, doc]) => setSpec(forRapiDoc(doc)),
      () => {
        // Shown in place of the reference, with a Retry.
      },
    );
  }, [track]);
  useEffect(load, [load]);
  const element = useRef<RapiDocElement>(null);
  useEffect(() => {
    if (spec !== null) void element.current?.loadSpec?.(spec);
  }, [spec]);
  const ready = spec !== null;
  const dark = theme.palette.mode === 'dark';
  // RapiDoc reads colours as #rrggbb only: opaque, in hex.
  const primary = hex(textShade(theme, 'primary'));
  const text = dark ? '#f5f5f5' : '#1f1f1f';
  return (
    <>
      <PageHeading>API Reference</PageHeading>
      <Typography sx={{ mb: 2 }}>
        Every endpoint of the Tessera API, from the{' '}
        <Link href={OPENAPI_PATH} download="tessera-openapi.json" color="primary">
          OpenAPI 3.1 document
        </Link>{' '}
        this server publishes. To try a call, use the{' '}
        <Link component={RouterLink} to="/playground" color="primary">
          playground
        </Link>{' '}
        with your console session, or an API key from the{' '}
        <Link component={RouterLink} to="/keys/add" color="primary">
          keys page
        </Link>
        .
      </Typography>
      {showsLoadError(loads) && (
        <LoadError what="the API reference" error={loads.error} retrying={loads.status === 'loading'} onRetry={load} />
      )}
      {!ready && !showsLoadError(loads) && <CircularProgress aria-label="Loading the API reference" />}
      {ready && (
        <Box
          data-testid="api-reference"
          sx={{
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            overflow: 'hidden',
            height: { xs: '75vh', md: 'calc(100vh - 220px)' },
            minHeight: 480,
          }}
        >
          <rapi-doc
            ref={element}
            style={{ width: '100%', height: '100%', ...RAPIDOC_COLOURS[dark ? 'dark' : 'light'] }}
            theme={dark ? 'dark' : 'light'}
            bg-color={dark ? '#121212' : '#ffffff'}
            text-color={text}
            primary-color={primary}
            nav-bg-color={dark ? '#1e1e1e' : '#f5f5f5'}
            nav-text-color={text}
            nav-hover-text-color={primary}
            nav-accent-color={primary}
            regular-font={String(theme.typography.fontFamily)}
            mono-font="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
            load-fonts="false"
            render-style={wide ? 'read' : 'view'}
            show-side-nav={wide ? 'true' : 'false'}
            show-header="false"
            show-info="true"
            allow-spec-url-load="false"
            allow-spec-file-load="false"
            allow-server-selection="false"
            server-url={window.location.origin}
            default-api-server={window.location.origin}
            allow-try="false"
            allow-authentication="false"
            update-route="false"
            schema-style="table"
            default-schema-tab="schema"
          />
        </Box>
      )}
    </>
  );
}
