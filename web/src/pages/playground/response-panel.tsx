/**
 * The reply: status, time, size in decimal units (spec §9), request id and the headers (collapsible); CSV as a
 * table, JSON as a collapsible tree, an error as the server's message in place. A streaming PUT shows its rows
 * as they come with a count and a Cancel button.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatBytes } from '@tessera/common/constants';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { parseCsv } from './csv';
import { CsvTable } from './csv-table';
import { JsonTree } from './json-tree';
import type { Reply } from './run-request';

// The chart library loads only when a reply has an explanation to draw.
const ExplainCharts = lazy(() => import('./explain-chart'));

/** A PUT reply so far: its header and complete rows. */
export interface Streaming {
  header: string[];
  rows: string[][];
  cancel(): void;
}

function parseReply(reply: Reply): { csv: { header: string[]; rows: string[][] } | null; json: unknown } {
  if (reply.error || reply.text === '') return { csv: null, json: undefined };
  if (/text\/csv/i.test(reply.contentType)) {
    const { rows } = parseCsv(reply.text);
    return { csv: { header: rows[0] ?? [], rows: rows.slice(1) }, json: undefined };
  }
  try {
    return { csv: null, json: JSON.parse(reply.text) };
  } catch {
    return { csv: null, json: reply.text };
  }
}

function Meta({ reply }: { reply: Reply }) {
  const [open, setOpen] = useState(false);
  const ok = reply.status >= 200 && reply.status < 300;
  return (
    <Box sx={{ mb: 1 }}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Chip
          label={`${reply.status || 'No answer'}`}
          color={ok ? 'success' : 'error'}
          size="small"
          data-testid="reply-status"
          aria-label={`Status ${reply.status}`}
        />
        <Typography variant="body2" data-testid="reply-time">
          {reply.ms.toLocaleString('en-US')} ms
        </Typography>
        <Typography variant="body2" data-testid="reply-size">
          {formatBytes(reply.bytes)}
        </Typography>
        {reply.requestId && (
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="reply-request-id">
            Request id {reply.requestId}
          </Typography>
        )}
        {reply.headers.length > 0 && (
          <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls="reply-headers">
            {open ? 'Hide headers' : 'Headers'}
          </Button>
        )}
      </Stack>
      <Collapse in={open}>
        <Box
          component="dl"
          id="reply-headers"
          sx={{ fontFamily: 'monospace', fontSize: 13, m: 0, mt: 1, overflowWrap: 'anywhere' }}
        >
          {reply.headers.map(([k, v]) => (
            <Box key={k} sx={{ display: 'flex', gap: 1 }}>
              <Box component="dt" sx={{ fontWeight: 600 }}>
                {k}:
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                {v}
              </Box>
            </Box>
          ))}
        </Box>
      </Collapse>
    </Box>
  );
}

export function ResponsePanel({
  reply,
  busy,
  streaming,
  hint,
  hintAction,
  explain = false,
}: {
  explain?: boolean;
  /** A button beside the hint (filling in a sample, say). */
  hintAction?: ReactNode;
  reply: Reply | null;
  busy: boolean;
  streaming: Streaming | null;
  hint: string | null;
}) {
  const parsed = useMemo(() => (reply ? parseReply(reply) : null), [reply]);
  return (
    <Box sx={{ minWidth: 0 }} aria-live="polite" aria-busy={busy} data-testid="response-panel">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Response
      </Typography>
      {busy && <LinearProgress aria-label="Waiting for the reply" sx={{ mb: 1 }} />}
      {streaming && (
        <>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
            {/* First, so it stays put while the count grows. */}
            <Button size="small" variant="outlined" color="error" onClick={streaming.cancel}>
              Cancel
            </Button>
            <Typography variant="body2" data-testid="stream-progress">
              {streaming.rows.length.toLocaleString('en-US')} rows received
            </Typography>
          </Stack>
          <CsvTable header={streaming.header} rows={streaming.rows} />
        </>
      )}
      {!streaming && !reply && hint && (
        <Alert severity="info" data-testid="reply-hint" action={hintAction}>
          {hint}
        </Alert>
      )}
      {!streaming && reply && parsed && (
        <>
          <Meta reply={reply} />
          {reply.cancelled && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              Cancelled: the rows received before it are shown.
            </Alert>
          )}
          {reply.error && !reply.cancelled && (
            <Alert severity="error" data-testid="reply-error">
              {reply.error}
            </Alert>
          )}
          {parsed.csv && <CsvTable header={parsed.csv.header} rows={parsed.csv.rows} />}
          {parsed.json !== undefined && explain && (
            <Suspense fallback={null}>
              <ExplainCharts reply={parsed.json} />
            </Suspense>
          )}
          {parsed.json !== undefined && <JsonTree value={parsed.json} />}
        </>
      )}
    </Box>
  );
}
