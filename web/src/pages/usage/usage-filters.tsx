/**
 * The usage page's controls (issue 16): range (presets, or custom with date pickers), interval, metric, who,
 * method and path. Each change goes to the query string through `onChange`.
 */
import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AUTOCOMPLETE_MAX_HEIGHT_PX } from '@tessera/common/constants';
import {
  callLabel,
  METRIC_LABELS,
  USAGE_INTERVALS,
  USAGE_METHODS,
  USAGE_METRICS,
  USAGE_PATHS,
} from '@tessera/common/usage';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import type { KeyOption } from './key-options';
import { RANGES, rangeOf, type UsageState, type Who } from './usage-query';

export interface WhoOption {
  value: Who;
  label: string;
  group: string;
}

const RANGE_LABELS: Record<(typeof RANGES)[number], string> = {
  day: 'Last day',
  week: 'Last week',
  month: 'Last month',
  quarter: 'Last quarter',
  year: 'Last year',
  custom: 'Custom',
};
const INTERVAL_LABELS = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };
const YEAR = new Date().getFullYear();

function Select(props: { label: string; value: string; onChange(value: string): void; children: ReactNode }) {
  return (
    <TextField
      select
      fullWidth={false}
      size="small"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      sx={{ minWidth: 150 }}
    >
      {props.children}
    </TextField>
  );
}

export function UsageFilters(props: {
  state: UsageState;
  whoOptions: WhoOption[];
  keyOptions: KeyOption[];
  onChange(patch: Partial<UsageState>): void;
}) {
  const { state, whoOptions, onChange } = props;
  // A key in the address that is not listed (deleted, or not loaded yet) is still shown as chosen.
  const keyOptions =
    state.key && !props.keyOptions.some((k) => k.id === state.key)
      ? [...props.keyOptions, { id: state.key, label: state.key }]
      : props.keyOptions;
  const who = whoOptions.find((o) => o.value === state.who) ?? null;
  const range = rangeOf(state, new Date());
  const picker = (label: string, value: Date, set: (d: Dayjs | null) => void) => (
    <DateTimePicker
      label={label}
      value={dayjs(value)}
      onChange={set}
      minutesStep={5}
      minDate={dayjs(new Date(YEAR - 100, 0, 1))}
      maxDate={dayjs(new Date(YEAR + 52, 11, 31))}
      slotProps={{ textField: { size: 'small', fullWidth: false } }}
    />
  );
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, mb: 2 }} component="section" aria-label="Filters">
      <Select label="Range" value={state.range} onChange={(v) => onChange({ range: v as UsageState['range'] })}>
        {RANGES.map((r) => (
          <MenuItem key={r} value={r}>
            {RANGE_LABELS[r]}
          </MenuItem>
        ))}
      </Select>
      {state.range === 'custom' && (
        <LocalizationProvider dateAdapter={AdapterDayjs}>
          {picker(
            'From',
            range.from,
            (d) => d?.isValid() && onChange({ from: d.toDate().toISOString(), to: range.to.toISOString() }),
          )}
          {picker(
            'To',
            range.to,
            (d) => d?.isValid() && onChange({ to: d.toDate().toISOString(), from: range.from.toISOString() }),
          )}
        </LocalizationProvider>
      )}
      <Select
        label="Interval"
        value={state.interval}
        onChange={(v) => onChange({ interval: v as UsageState['interval'] })}
      >
        {USAGE_INTERVALS.map((i) => (
          <MenuItem key={i} value={i}>
            {INTERVAL_LABELS[i]}
          </MenuItem>
        ))}
      </Select>
      <Select label="Metric" value={state.metric} onChange={(v) => onChange({ metric: v as UsageState['metric'] })}>
        {USAGE_METRICS.map((m) => (
          <MenuItem key={m} value={m}>
            {METRIC_LABELS[m]}
          </MenuItem>
        ))}
      </Select>
      <Autocomplete
        size="small"
        options={whoOptions}
        groupBy={(o) => o.group}
        value={who}
        disableClearable={who !== null}
        onChange={(_, o) => o && onChange({ who: o.value })}
        isOptionEqualToValue={(a, b) => a.value === b.value}
        getOptionLabel={(o) => o.label}
        slotProps={{ listbox: { style: { maxHeight: AUTOCOMPLETE_MAX_HEIGHT_PX } } }}
        sx={{ minWidth: 240 }}
        renderInput={(params) => <TextField {...params} label="Who" />}
      />
      <Select label="Method" value={state.method} onChange={(v) => onChange({ method: v as UsageState['method'] })}>
        {USAGE_METHODS.map((m) => (
          <MenuItem key={m} value={m}>
            {m === '*' ? 'Any method' : m}
          </MenuItem>
        ))}
      </Select>
      <Select label="Path" value={state.path} onChange={(v) => onChange({ path: v as UsageState['path'] })}>
        {USAGE_PATHS.map((p) => (
          <MenuItem key={p} value={p}>
            {p === '*' ? 'Any path' : callLabel(p)}
          </MenuItem>
        ))}
      </Select>
      <Autocomplete
        size="small"
        options={keyOptions}
        value={keyOptions.find((k) => k.id === state.key) ?? null}
        onChange={(_, k) => onChange({ key: k?.id ?? '' })}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        getOptionLabel={(k) => k.label}
        noOptionsText="No keys"
        slotProps={{ listbox: { style: { maxHeight: AUTOCOMPLETE_MAX_HEIGHT_PX } } }}
        sx={{ minWidth: 240 }}
        renderInput={(params) => <TextField {...params} label="Key" placeholder="Any key or the console" />}
      />
    </Stack>
  );
}
