/**
 * Playground (spec §2, issue 17): try a lookup with the console session (metered to the user). The request lives
 * in the query string, so a link reproduces it; with auto-fetch on, a change re-runs it 250 ms after typing stops
 * (spec §9 debounce), only when the inputs are valid; with it off, Send does. Parameters | response in a split
 * pane (parameter pane 50 % by default).
 */
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DEBOUNCE_MS } from '@tessera/common/constants';
import type { Template } from '@tessera/common/templates';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PanePresets, SplitPane } from '../../app/split-pane';
import { api } from '../../lib/api';
import { sampleInput, useSamples } from '../../lib/samples';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { parseBatch } from './batch';
import { CodePanel } from './code-panel';
import { sampleRequest } from './code-samples';
import { parseCsv } from './csv';
import { useLookupParams } from './openapi';
import { inputsOf, type PlaygroundState, parseState, requestUrl, stateSearch, withEndpoint } from './playground-state';
import { RequestForm, type TemplateChoice } from './request-form';
import { ResponsePanel, type Streaming } from './response-panel';
import { postBody, type Reply, runRequest } from './run-request';
import { getProblem, optionsProblem } from './validate';

export const FILE_NEEDED = 'Please choose a CSV file to upload.';

function useTemplateChoices(): TemplateChoice[] {
  const [choices, setChoices] = useState<TemplateChoice[]>([]);
  useEffect(() => {
    let live = true;
    api.get<{ templates?: Record<string, Template> }>('/v2/templates').then(
      (reply) => {
        if (!live) return;
        const list = Object.values(reply.templates ?? {})
          .filter((t) => t.publishedVersion !== null && !t.deletedAt)
          .map((t) => ({ id: t.id, name: t.name }))
          .sort((a, b) => a.id - b.id);
        setChoices(list);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return choices;
}

/** Why the request cannot be sent as it stands, or null. */
export function requestProblem(state: PlaygroundState, batchProblem: string | null, file: File | null): string | null {
  const own =
    state.method === 'GET' ? getProblem(state) : state.method === 'POST' ? batchProblem : file ? null : FILE_NEEDED;
  return own ?? optionsProblem(state);
}

export default function PlaygroundPage() {
  const [search, setSearch] = useSearchParams();
  const paneSize = useSettings((s) => s.playgroundPaneSize);
  const updateSettings = useSettings((s) => s.update);
  const state = useMemo(() => parseState(search, paneSize), [search, paneSize]);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  // Each input's example is a value that finds someone on this server (GET /v2/samples), not a made-up one.
  const samples = useSamples('live');
  const documented = useLookupParams(state.endpoint);
  const params = useMemo(
    () => documented.map((p) => ({ ...p, example: sampleInput(samples, p.name) ?? p.example })),
    [documented, samples],
  );
  // With no input given yet, the hint offers to fill in the endpoint's inputs from a person who is there.
  const sampleFill = useMemo(() => {
    if (!samples || inputsOf(state.endpoint).some((n) => (state.inputs[n] ?? '').trim() !== '')) return null;
    const names = state.endpoint === 'byAny' ? (['email'] as const) : inputsOf(state.endpoint);
    const fill = Object.fromEntries(
      names.flatMap((n) => {
        const v = sampleInput(samples, n);
        return v === undefined ? [] : [[n, v]];
      }),
    );
    return Object.keys(fill).length > 0 ? fill : null;
  }, [samples, state.endpoint, state.inputs]);
  const templates = useTemplateChoices();
  const batch = useMemo(() => parseBatch(state.endpoint, state.batch), [state.endpoint, state.batch]);
  const [file, setFile] = useState<File | null>(null);
  const [reply, setReply] = useState<Reply | null>(null);
  const [busy, setBusy] = useState(false);
  const [streaming, setStreaming] = useState<Streaming | null>(null);
  const abort = useRef<AbortController | null>(null);
  const sequence = useRef(0);

  const change = useCallback(
    (next: PlaygroundState) => {
      const out = stateSearch(next);
      useStore.getState().setModel(Object.fromEntries(out));
      // A model sync, not a navigation: no new page view, no scroll to the top (app/use-page-model.ts).
      setSearch(out, { replace: true, state: { modelSync: true } });
    },
    [setSearch],
  );
  const patch = (p: Partial<PlaygroundState>) => change({ ...state, ...p });
  /** A drag or preset: in the link, and remembered in the settings for the next visit. */
  const resize = (pane: number) => {
    updateSettings({ playgroundPaneSize: pane });
    patch({ pane });
  };

  const problem = requestProblem(state, batch.problem, file);
  const requestKey =
    problem === null
      ? `${state.method} ${requestUrl(state)} ${state.method === 'POST' ? JSON.stringify(postBody(state, batch.inputs)) : ''}`
      : null;

  const send = useCallback(async () => {
    if (problem !== null) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const mine = ++sequence.current;
    setBusy(true);
    setStreaming(null);
    // A PUT reply is read as it comes: each chunk's complete rows parsed once, the table redrawn at most every
    // 250 ms, so a long stream keeps the page (and its Cancel button) responsive.
    let shown = 0;
    let pending = '';
    let header: string[] | null = null;
    const received: string[][] = [];
    const onChunk =
      state.method === 'PUT'
        ? (chunk: string) => {
            const parsed = parseCsv(pending + chunk, false);
            pending = parsed.rest;
            for (const row of parsed.rows) {
              if (header === null) header = row;
              else received.push(row);
            }
            const now = performance.now();
            if (now - shown < DEBOUNCE_MS) return;
            shown = now;
            setStreaming({ header: header ?? [], rows: received.slice(), cancel: () => controller.abort() });
          }
        : undefined;
    const result = await runRequest(state, {
      signal: controller.signal,
      inputs: batch.inputs,
      file: file ?? undefined,
      onChunk,
    });
    if (mine !== sequence.current) return; // a newer request took its place
    setReply(result);
    setBusy(false);
    setStreaming(null);
  }, [problem, state, batch.inputs, file]);

  const latestSend = useRef(send);
  latestSend.current = send;
  useEffect(() => {
    if (!state.autoFetch || requestKey === null || state.method === 'PUT') return;
    const timer = setTimeout(() => void latestSend.current(), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [requestKey, state.autoFetch, state.method]);
  useEffect(() => () => abort.current?.abort(), []);

  const showSend = !state.autoFetch || state.method === 'PUT';
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const left = (
    <Box sx={{ minWidth: 0 }}>
      <RequestForm
        state={state}
        params={params}
        templates={templates}
        batchProblem={batch.problem}
        batchCount={batch.inputs.length}
        file={file}
        onChange={patch}
        onEndpoint={(endpoint) => change(withEndpoint(state, endpoint))}
        onInput={(name, value) => patch({ inputs: { ...state.inputs, [name]: value } })}
        onFile={setFile}
      />
      {showSend && (
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
          <Button
            variant="contained"
            startIcon={<SendIcon />}
            disabled={problem !== null || streaming !== null}
            onClick={() => void send()}
          >
            Send
          </Button>
        </Stack>
      )}
      {problem && state.method !== 'GET' && state.method !== 'POST' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
      <CodePanel request={sampleRequest(state, origin, batch.inputs)} />
    </Box>
  );
  const right = (
    <Box sx={{ pl: { md: 1 }, pt: 1, minWidth: 0 }}>
      <ResponsePanel
        reply={reply}
        busy={busy}
        streaming={streaming}
        hint={problem}
        hintAction={
          state.method === 'GET' && sampleFill ? (
            <Button
              color="inherit"
              size="small"
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() => patch({ inputs: { ...state.inputs, ...sampleFill } })}
            >
              Use a sample
            </Button>
          ) : undefined
        }
        explain={state.explain}
      />
    </Box>
  );
  return (
    <Box sx={{ minWidth: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <PageHeading>Playground</PageHeading>
        {!narrow && (
          <PanePresets
            size={state.pane}
            onChoose={resize}
            label="Parameter pane width"
            itemLabel={(size) => `Parameters ${size}%`}
          />
        )}
      </Stack>
      <SplitPane
        left={left}
        right={right}
        size={state.pane}
        onResize={resize}
        panelIds={['params', 'response']}
        separatorLabel="Resize the parameters and the response"
        height="max(560px, calc(100vh - 200px))"
        scroll
      />
    </Box>
  );
}
