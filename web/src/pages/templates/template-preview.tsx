/**
 * The right-hand pane: the expression rendered for a sample (the synthetic identity, free; or a real identity by
 * id, metered as a lookup), as JSON or CSV, refreshed 250 ms (spec §9 debounce) after typing stops. A compile
 * error goes to the editor's lint marker; a runtime error shows in place of the output. Never a crash.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DEBOUNCE_MS } from '@tessera/common/constants';
import type { TemplateFormat, TemplatePreview } from '@tessera/common/templates';
import { useEffect, useRef, useState } from 'react';
import { type CompileError, previewTemplate } from './template-api';

export interface PreviewState {
  /** The last rendering, kept while the next one is on its way. */
  preview: TemplatePreview | null;
  /** The expression does not compile: shown at its place in the editor. */
  compile: CompileError | null;
  /** It compiles but failed when run (or the sample could not be looked up). */
  failure: string | null;
  busy: boolean;
}

export interface Sample {
  kind: 'synthetic' | 'identity';
  identityId: string;
}

/** The sample a preview renders: undefined for the synthetic one, or the chosen identity's id once it has one. */
export const sampleId = (sample: Sample): string | undefined =>
  sample.kind === 'identity' && sample.identityId.trim() !== '' ? sample.identityId.trim() : undefined;

/**
 * Renders `expression` DEBOUNCE_MS after it (or the format or sample) last changed. Answers to earlier requests
 * that arrive after a later one was sent are dropped.
 */
export function usePreview(expression: string, format: TemplateFormat, sample: Sample, delay = DEBOUNCE_MS) {
  const [state, setState] = useState<PreviewState>({ preview: null, compile: null, failure: null, busy: false });
  const sequence = useRef(0);
  const identity = sampleId(sample);
  useEffect(() => {
    if (expression.trim() === '') {
      setState({ preview: null, compile: null, failure: 'Write an expression to see its output.', busy: false });
      return;
    }
    const mine = ++sequence.current;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, busy: true }));
      void previewTemplate(expression, format, identity).then((result) => {
        if (mine !== sequence.current) return;
        if (result.ok) setState({ preview: result.value, compile: null, failure: null, busy: false });
        else if (result.compile) setState((s) => ({ ...s, compile: result.compile, failure: null, busy: false }));
        else setState((s) => ({ ...s, compile: null, failure: result.message, busy: false }));
      });
    }, delay);
    return () => clearTimeout(timer);
  }, [expression, format, identity, delay]);
  return state;
}

function Output({ text, label }: { text: string; label: string }) {
  return (
    <Box
      component="pre"
      tabIndex={0}
      aria-label={label}
      data-testid="preview-output"
      sx={{
        m: 0,
        p: 1.5,
        flex: 1,
        overflow: 'auto',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 13,
        bgcolor: 'background.default',
        color: 'text.primary',
        borderRadius: 1,
        whiteSpace: 'pre',
      }}
    >
      {text}
    </Box>
  );
}

export function PreviewPane({
  state,
  format,
  onFormat,
  sample,
  onSample,
}: {
  state: PreviewState;
  format: TemplateFormat;
  onFormat: (format: TemplateFormat) => void;
  sample: Sample;
  onSample: (sample: Sample) => void;
}) {
  const { preview, compile, failure, busy } = state;
  const shown =
    preview && preview.format === format
      ? format === 'csv'
        ? (preview.csv ?? '')
        : JSON.stringify(preview.identities, null, 2)
      : null;
  return (
    <Stack sx={{ height: '100%', minHeight: 0, p: 1 }} spacing={1} data-testid="preview-pane">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Tabs value={format} onChange={(_, next: TemplateFormat) => onFormat(next)} aria-label="Output format">
          <Tab value="json" label="JSON" id="preview-tab-json" aria-controls="preview-panel" />
          <Tab value="csv" label="CSV" id="preview-tab-csv" aria-controls="preview-panel" />
        </Tabs>
        {busy && <CircularProgress size={20} aria-label="Rendering the preview" />}
      </Stack>
      <RadioGroup
        row
        aria-label="Sample"
        value={sample.kind}
        onChange={(e) => onSample({ ...sample, kind: e.target.value as Sample['kind'] })}
      >
        <FormControlLabel value="synthetic" control={<Radio size="small" />} label="Synthetic identity" />
        <FormControlLabel value="identity" control={<Radio size="small" />} label="Identity by id" />
      </RadioGroup>
      {sample.kind === 'identity' && (
        <TextField
          size="small"
          label="Identity id"
          value={sample.identityId}
          onChange={(e) => onSample({ ...sample, identityId: e.target.value })}
          helperText="A real identity is looked up, metered and priced as a lookup."
        />
      )}
      <Box
        id="preview-panel"
        role="tabpanel"
        aria-labelledby={`preview-tab-${format}`}
        sx={{ flex: 1, minHeight: 160, display: 'flex', flexDirection: 'column' }}
      >
        {compile ? (
          <Alert severity="error" data-testid="preview-compile-error">
            The expression does not compile (line {compile.line}, column {compile.column}): {compile.message}
          </Alert>
        ) : failure ? (
          <Alert severity="warning" data-testid="preview-failure">
            {failure}
          </Alert>
        ) : shown === null ? (
          <Typography color="text.secondary">Rendering…</Typography>
        ) : (
          <Output text={shown} label={`${format.toUpperCase()} output`} />
        )}
      </Box>
    </Stack>
  );
}
