/**
 * Every filter of a segment (common/segments.ts): values within one filter are alternatives (OR), the filters
 * together all apply (AND). States use the spec §3 state selector (abbreviation, full name beneath). Problems come
 * from readSegmentFilters, the server's own rules, shown under the field they concern.
 */
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  BEHAVIOR_CATEGORIES,
  type BehaviorFilter,
  CREDIT_BANDS,
  FLAG_FILTERS,
  FLAG_LABELS,
  type FlagFilter,
  GENDERS,
  INCOME_BANDS,
  NET_WORTH_BANDS,
  type SegmentFilters,
} from '@tessera/common/segments';
import { findState, US_STATES } from '@tessera/common/states';

/** The builder's own form of the filters: ages as typed, so a half-typed one can be shown with its problem. */
export interface FilterDraft {
  filters: SegmentFilters;
  ageMin: string;
  ageMax: string;
}

const BEHAVIOR_JOIN = ' / ';
const behaviorText = (b: BehaviorFilter) => (b.name ? `${b.category}${BEHAVIOR_JOIN}${b.name}` : b.category);
function behaviorOf(text: string): BehaviorFilter {
  const at = text.indexOf(BEHAVIOR_JOIN);
  if (at < 0) return { category: text.trim() };
  return { category: text.slice(0, at).trim(), name: text.slice(at + BEHAVIOR_JOIN.length).trim() };
}

/** The filters the server is sent: the draft's, with the ages as typed. */
export function draftFilters(draft: FilterDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { ...draft.filters };
  if (draft.ageMin.trim()) out.ageMin = /^\d+$/.test(draft.ageMin.trim()) ? Number(draft.ageMin) : draft.ageMin;
  if (draft.ageMax.trim()) out.ageMax = /^\d+$/.test(draft.ageMax.trim()) ? Number(draft.ageMax) : draft.ageMax;
  return out;
}

export function draftOf(filters: SegmentFilters): FilterDraft {
  const { ageMin, ageMax, ...rest } = filters;
  return {
    filters: rest,
    ageMin: ageMin === undefined ? '' : String(ageMin),
    ageMax: ageMax === undefined ? '' : String(ageMax),
  };
}

interface Props {
  draft: FilterDraft;
  onChange(draft: FilterDraft): void;
  /** Problems by path under `filters.` (e.g. `states.0`, `ageMax`). */
  problems: Record<string, string>;
}

const problemOf = (problems: Record<string, string>, key: string) =>
  Object.entries(problems).find(([path]) => path === key || path.startsWith(`${key}.`))?.[1];

export function SegmentFilterFields({ draft, onChange, problems }: Props) {
  const f = draft.filters;
  const set = <K extends keyof SegmentFilters>(key: K, value: SegmentFilters[K] | undefined) => {
    const filters = { ...f };
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete filters[key];
    else filters[key] = value;
    onChange({ ...draft, filters });
  };
  const list = (key: 'incomes' | 'netWorths' | 'credits', label: string, options: readonly string[]) => (
    <Autocomplete
      multiple
      options={options as string[]}
      value={f[key] ?? []}
      onChange={(_e, value) => set(key, value)}
      renderInput={(params) => (
        <TextField {...params} label={label} error={!!problemOf(problems, key)} helperText={problemOf(problems, key)} />
      )}
    />
  );
  const texts = (key: 'zipPrefixes' | 'companies', label: string, hint: string) => (
    <Autocomplete
      multiple
      freeSolo
      options={[] as string[]}
      value={f[key] ?? []}
      onChange={(_e, value) => set(key, (value as string[]).map((v) => v.trim()).filter(Boolean))}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={!!problemOf(problems, key)}
          helperText={problemOf(problems, key) ?? hint}
        />
      )}
    />
  );

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Autocomplete
        multiple
        options={US_STATES.map((s) => s.abbreviation)}
        value={f.states ?? []}
        onChange={(_e, value) => set('states', value)}
        renderOption={(props, abbreviation) => {
          const { key, ...rest } = props as typeof props & { key: string };
          return (
            <li key={key} {...rest}>
              <ListItemText primary={abbreviation} secondary={findState(abbreviation)?.name} />
            </li>
          );
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label="States"
            error={!!problemOf(problems, 'states')}
            helperText={problemOf(problems, 'states')}
          />
        )}
      />
      {texts('zipPrefixes', 'ZIP prefixes', 'Type 1 to 5 digits and press Enter.')}
      <Box sx={{ display: 'flex', gap: 2 }}>
        {(['ageMin', 'ageMax'] as const).map((key) => (
          <TextField
            key={key}
            label={key === 'ageMin' ? 'Age from' : 'Age to'}
            value={draft[key]}
            onChange={(e) => onChange({ ...draft, [key]: e.target.value })}
            error={!!problems[key]}
            helperText={problems[key]}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
            fullWidth
          />
        ))}
      </Box>
      <TextField
        select
        label="Gender"
        value={f.genders ?? []}
        onChange={(e) => set('genders', e.target.value as unknown as string[])}
        slotProps={{ select: { multiple: true } }}
        error={!!problemOf(problems, 'genders')}
        helperText={problemOf(problems, 'genders')}
      >
        {GENDERS.map((g) => (
          <MenuItem key={g.value} value={g.value}>
            {g.label}
          </MenuItem>
        ))}
      </TextField>
      {list('incomes', 'Income', INCOME_BANDS)}
      {list('netWorths', 'Net worth', NET_WORTH_BANDS)}
      {list('credits', 'Credit', CREDIT_BANDS)}
      <Autocomplete
        multiple
        freeSolo
        options={[...BEHAVIOR_CATEGORIES]}
        value={(f.behaviors ?? []).map(behaviorText)}
        onChange={(_e, value) => set('behaviors', (value as string[]).filter((v) => v.trim()).map(behaviorOf))}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Behaviors"
            error={!!problemOf(problems, 'behaviors')}
            helperText={problemOf(problems, 'behaviors') ?? 'A category, or category / name (Interests / Golf).'}
          />
        )}
      />
      {texts('companies', 'Companies', 'Whole company names, any case; press Enter after each.')}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
          gridColumn: '1 / -1',
        }}
      >
        {FLAG_FILTERS.map((flag: FlagFilter) => (
          <TextField
            key={flag}
            select
            label={FLAG_LABELS[flag]}
            value={f[flag] === undefined ? 'any' : f[flag] ? 'yes' : 'no'}
            onChange={(e) => set(flag, e.target.value === 'any' ? undefined : e.target.value === 'yes')}
          >
            <MenuItem value="any">Any</MenuItem>
            <MenuItem value="yes">Yes</MenuItem>
            <MenuItem value="no">No</MenuItem>
          </TextField>
        ))}
      </Box>
    </Box>
  );
}
