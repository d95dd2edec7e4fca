/**
 * Query (issue 20, root): a read-only SQL console. Pick a cluster, write one statement (completion knows that
 * cluster's tables and columns), Run, Explain or Cancel it; the result is paged with the spec §9 sizes and can be
 * saved whole, up to the row cap, as a CSV file. The first query asks for the password (step-up).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAIN_CLUSTER } from '@tessera/common/clusters';
import {
  type ClusterSchema,
  QUERY_LIMITS,
  type QueryResult,
  type QueryRun,
  type SavedQuery,
} from '@tessera/common/query-console';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { PageHeading } from '../page-heading';
import {
  cancelQuery,
  deleteSavedQuery,
  exportCsv,
  loadClusters,
  loadHistory,
  loadSaved,
  loadSchema,
  needsStepUp,
  newRunId,
  runQuery,
  saveQuery,
} from './query-api';
import { QueryLists } from './query-lists';
import { ResultsTable } from './results-table';
import { SaveDialog } from './save-dialog';
import { SqlBox } from './sql-box';
import { StepUpDialog } from './step-up-dialog';

type Action = 'run' | 'explain' | 'csv';

function capError(value: string): string {
  if (!/^\d+$/.test(value)) return 'Please provide an integer.';
  const n = Number(value);
  if (n < 1 || n > QUERY_LIMITS.maxRows)
    return `Please provide a row cap from 1 to ${QUERY_LIMITS.maxRows.toLocaleString('en-US')}.`;
  return '';
}

export default function QueryPage() {
  const [clusters, setClusters] = useState<string[]>([MAIN_CLUSTER]);
  const [cluster, setCluster] = useState(MAIN_CLUSTER);
  const [sql, setSql] = useState('select * from users limit 10');
  const [maxRows, setMaxRows] = useState(String(QUERY_LIMITS.defaultMaxRows));
  const [schema, setSchema] = useState<ClusterSchema>({});
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState('');
  const [running, setRunning] = useState<string | null>(null);
  const [history, setHistory] = useState<QueryRun[]>([]);
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [stepUp, setStepUp] = useState<Action | null>(null);
  const [saving, setSaving] = useState(false);
  const live = useRef(true);

  const refreshHistory = useCallback(() => {
    void loadHistory().then(
      (r) => live.current && setHistory(r.queryHistory),
      () => {},
    );
  }, []);

  useEffect(() => {
    live.current = true;
    void loadClusters().then(
      (r) => live.current && setClusters(r.queryClusters),
      () => {},
    );
    void loadSaved().then(
      (r) => live.current && setSaved(r.savedQueries),
      () => {},
    );
    refreshHistory();
    return () => {
      live.current = false;
    };
  }, [refreshHistory]);

  useEffect(() => {
    setSchema({});
    void loadSchema(cluster).then(
      (r) => live.current && setSchema(r.querySchema.tables),
      () => {},
    );
  }, [cluster]);

  const cap = capError(maxRows);

  const start = useCallback(
    async (action: Action) => {
      if (cap || running) return;
      const runId = newRunId();
      const input = { cluster, sql, maxRows: Number(maxRows), explain: action === 'explain', runId };
      setRunning(runId);
      setError('');
      try {
        if (action === 'csv') await exportCsv(input);
        else setResult(await runQuery(input));
      } catch (err) {
        if (err instanceof ApiError && needsStepUp(err.status, err.body)) setStepUp(action);
        else if (err instanceof ApiError) setError(err.message);
      } finally {
        if (live.current) {
          setRunning(null);
          refreshHistory();
        }
      }
    },
    [cap, running, cluster, sql, maxRows, refreshHistory],
  );

  return (
    <>
      <PageHeading>Query</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        One read-only statement at a time, in a READ ONLY transaction with a {QUERY_LIMITS.timeoutMs / 1000} s statement
        timeout. Ctrl+Enter runs it.
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 9 }}>
          <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <TextField
              select
              label="Cluster"
              value={cluster}
              onChange={(e) => setCluster(e.target.value)}
              sx={{ width: 200 }}
            >
              {clusters.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Row cap"
              value={maxRows}
              onChange={(e) => setMaxRows(e.target.value)}
              error={cap !== ''}
              helperText={cap || `Up to ${QUERY_LIMITS.maxRows.toLocaleString('en-US')}`}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
              sx={{ width: 200 }}
            />
          </Stack>
          <SqlBox value={sql} onChange={setSql} onRun={() => void start('run')} schema={schema} label="SQL statement" />
          <Stack direction="row" spacing={1} useFlexGap sx={{ my: 2, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => void start('run')} disabled={running !== null || cap !== ''}>
              Run
            </Button>
            <Button variant="outlined" onClick={() => void start('explain')} disabled={running !== null || cap !== ''}>
              Explain
            </Button>
            <Button
              variant="outlined"
              color="error"
              onClick={() => running && void cancelQuery(running).catch(() => {})}
              disabled={running === null}
            >
              Cancel
            </Button>
            <Button variant="outlined" onClick={() => void start('csv')} disabled={running !== null || cap !== ''}>
              Export CSV
            </Button>
            <Button onClick={() => setSaving(true)} disabled={sql.trim() === ''}>
              Save
            </Button>
          </Stack>
          <Box aria-live="polite">
            {running && <Typography>Running…</Typography>}
            {error && (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="query-error">
                {error}
              </Alert>
            )}
            {result && !running && !error && (
              <Typography sx={{ mb: 1 }} data-testid="query-summary">
                {result.rowCount.toLocaleString('en-US')} {result.rowCount === 1 ? 'row' : 'rows'} in {result.ms} ms
                {result.truncated ? ` (cut at the row cap of ${Number(maxRows).toLocaleString('en-US')})` : ''}
              </Typography>
            )}
          </Box>
          {result && <ResultsTable result={result} />}
        </Grid>
        <Grid size={{ xs: 12, lg: 3 }}>
          <QueryLists
            history={history}
            saved={saved}
            onPick={(item) => {
              if (clusters.includes(item.cluster)) setCluster(item.cluster);
              setSql(item.sql);
            }}
            onDelete={(id) =>
              void deleteSavedQuery(id).then(
                (r) => setSaved(r.savedQueries),
                () => {},
              )
            }
          />
        </Grid>
      </Grid>
      <StepUpDialog
        open={stepUp !== null}
        onClose={() => setStepUp(null)}
        onConfirmed={() => {
          const action = stepUp;
          setStepUp(null);
          if (action) void start(action);
        }}
      />
      <SaveDialog
        open={saving}
        onClose={() => setSaving(false)}
        onSave={async (name) => {
          const r = await saveQuery({ name, cluster, sql });
          setSaved(r.savedQueries);
          setSaving(false);
        }}
      />
    </>
  );
}
