/**
 * The parameter pane: method, path, output format, template, minScore, limit, explain, auto-fetch; then the GET
 * inputs made from the OpenAPI document, the POST batch editor or the PUT file picker.
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { formatBytes } from '@tessera/common/constants';
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_LIMITS, type LookupEndpoint } from '@tessera/common/lookups';
import type { ParamInfo } from './openapi';
import { ParamField, useShownError } from './param-fields';
import { FORMATS, LOOKUP_BASE, METHODS, type Method, type PlaygroundState } from './playground-state';
import { optionError } from './validate';

export interface TemplateChoice {
  id: number;
  name: string;
}

interface Props {
  state: PlaygroundState;
  params: ParamInfo[];
  templates: TemplateChoice[];
  batchProblem: string | null;
  batchCount: number;
  file: File | null;
  onChange(patch: Partial<PlaygroundState>): void;
  onEndpoint(endpoint: LookupEndpoint): void;
  onInput(name: string, value: string): void;
  onFile(file: File | null): void;
}

function OptionField({
  name,
  value,
  label,
  help,
  onChange,
}: {
  name: 'minScore' | 'limit';
  value: string;
  label: string;
  help: string;
  onChange: (v: string) => void;
}) {
  const { error, onBlur } = useShownError(value, (v) => optionError(name, v));
  return (
    <TextField
      id={`option-${name}`}
      label={label}
      value={value}
      size="small"
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      error={Boolean(error)}
      helperText={error ?? help}
      slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 10 } }}
      sx={{ flex: '1 1 140px' }}
    />
  );
}

export function RequestForm(props: Props) {
  const { state, onChange } = props;
  return (
    <Stack spacing={2} sx={{ pr: { md: 1 }, pt: 1, minWidth: 0 }} component="form" onSubmit={(e) => e.preventDefault()}>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 2 }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={state.method}
          onChange={(_, m: Method | null) => {
            if (m) onChange({ method: m });
          }}
          aria-label="Method"
        >
          {METHODS.map((m) => (
            <ToggleButton key={m} value={m}>
              {m}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={state.format}
          onChange={(_, f: PlaygroundState['format'] | null) => {
            if (f) onChange({ format: f });
          }}
          aria-label="Output format"
        >
          {FORMATS.map((f) => (
            <ToggleButton key={f} value={f}>
              {f.toUpperCase()}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      <TextField
        select
        id="lookup-path"
        label="Path"
        size="small"
        value={state.endpoint}
        onChange={(e) => props.onEndpoint(e.target.value as LookupEndpoint)}
      >
        {LOOKUP_ENDPOINT_NAMES.map((name) => (
          <MenuItem key={name} value={name}>
            {LOOKUP_BASE}
            {name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        id="lookup-template"
        label="Template (optional)"
        size="small"
        value={state.template}
        onChange={(e) => onChange({ template: e.target.value })}
        helperText="Without one, the API's default: Full."
        slotProps={{
          inputLabel: { shrink: true },
          select: {
            displayEmpty: true,
            renderValue: (v) =>
              v === '' ? 'None' : (props.templates.find((t) => String(t.id) === v)?.name ?? `Template ${v}`),
          },
        }}
      >
        <MenuItem value="">
          <em>None</em>
        </MenuItem>
        {props.templates.map((t) => (
          <MenuItem key={t.id} value={String(t.id)}>
            {t.name} ({t.id})
          </MenuItem>
        ))}
        {state.template && !props.templates.some((t) => String(t.id) === state.template) && (
          <MenuItem value={state.template}>Template {state.template}</MenuItem>
        )}
      </TextField>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 2 }}>
        <OptionField
          name="minScore"
          label="minScore (optional)"
          help="Only identities scoring at least this, 0 to 100."
          value={state.minScore}
          onChange={(minScore) => onChange({ minScore })}
        />
        <OptionField
          name="limit"
          label="limit (optional)"
          help={`Identities per input, 1 to ${LOOKUP_LIMITS.maxLimit}.`}
          value={state.limit}
          onChange={(limit) => onChange({ limit })}
        />
      </Stack>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', columnGap: 2 }}>
        <FormControlLabel
          control={<Switch checked={state.explain} onChange={(e) => onChange({ explain: e.target.checked })} />}
          label="Explain scores"
        />
        <FormControlLabel
          control={<Switch checked={state.autoFetch} onChange={(e) => onChange({ autoFetch: e.target.checked })} />}
          label="Auto-fetch"
        />
      </Stack>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {state.method === 'GET' ? 'Inputs' : state.method === 'POST' ? 'Batch' : 'CSV upload'}
      </Typography>
      {state.method === 'GET' &&
        props.params.map((p) => (
          <ParamField
            key={`${state.endpoint}-${p.name}`}
            param={p}
            value={state.inputs[p.name as keyof PlaygroundState['inputs']] ?? ''}
            onChange={(v) => props.onInput(p.name, v)}
          />
        ))}
      {state.method === 'POST' && (
        <TextField
          id="batch-inputs"
          label="Inputs"
          multiline
          minRows={6}
          maxRows={20}
          value={state.batch}
          onChange={(e) => onChange({ batch: e.target.value })}
          error={state.batch.trim() !== '' && Boolean(props.batchProblem)}
          helperText={
            state.batch.trim() !== '' && props.batchProblem
              ? props.batchProblem
              : `One input per line, or CSV with a header row naming inputs; up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')}. ${props.batchCount.toLocaleString('en-US')} now.`
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      )}
      {state.method === 'PUT' && (
        <Box>
          <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
            Choose a CSV file
            <input
              type="file"
              accept=".csv,text/csv"
              hidden
              data-testid="csv-file"
              onChange={(e) => props.onFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" sx={{ mt: 1 }} data-testid="chosen-file">
            {props.file
              ? `${props.file.name}, ${formatBytes(props.file.size)}`
              : 'A header row naming input columns, then one input per row. Other columns are passed through.'}
          </Typography>
        </Box>
      )}
    </Stack>
  );
}
