/**
 * The score calculator: a signed-in user enters a name and address, the page asks byPii with explain=true for the
 * best candidate and draws each field's share of its score. Visitors (signed out) see the same drawn from a real
 * reply captured from the server (example-reply.json).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LOOKUP_LIMITS, PII_INPUTS, PII_MESSAGES, type PiiInputName, piiPlaceProblem } from '@tessera/common/lookups';
import { hasRank } from '@tessera/common/roles';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError, api, fieldErrors } from '../../lib/api';
import { useStore } from '../../lib/store';
import example from './example-reply.json';
import { FIELD_LABELS, FIELDS, MODEL } from './scoring-model';
import { type Step, topExplained, waterfall } from './waterfall';

const WaterfallChart = lazy(() => import('./waterfall-chart'));

export const EXAMPLE = example;

const INPUT_LABELS: Record<PiiInputName, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  address: 'Street address',
  city: 'City',
  state: 'State',
  zip: 'Zip',
};

type Values = Record<PiiInputName, string>;

/** The form's own checks, with the API's messages (common/lookups.ts); the server checks the same again. */
export function validate(values: Values): Partial<Record<PiiInputName, string>> {
  const errors: Partial<Record<PiiInputName, string>> = {};
  for (const name of PII_INPUTS)
    if (values[name].length > LOOKUP_LIMITS.maxPiiLength) errors[name] = PII_MESSAGES.tooLong;
  if (!values.firstName.trim()) errors.firstName = PII_MESSAGES.names;
  if (!values.lastName.trim()) errors.lastName = PII_MESSAGES.names;
  if (values.zip.trim() && !/^\d{5}(-\d{4})?$/.test(values.zip.trim())) errors.zip = PII_MESSAGES.zip;
  if (values.state.trim() && !/^[A-Za-z]{2}$/.test(values.state.trim())) errors.state = PII_MESSAGES.state;
  const trimmed = Object.fromEntries(PII_INPUTS.map((n) => [n, values[n].trim()]));
  const place = piiPlaceProblem(trimmed);
  if (place === 'place') errors.address ??= PII_MESSAGES.place;
  if (place === 'houseNumber') errors.address ??= PII_MESSAGES.houseNumber;
  return errors;
}

export default function Calculator() {
  const self = useStore((s) => s.self);
  const signedIn = hasRank(self.role, 'user');
  const [values, setValues] = useState<Values>({ ...example.query });
  const [reply, setReply] = useState<unknown>(example.reply);
  const [mine, setMine] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure('');
    try {
      const query = Object.fromEntries(PII_INPUTS.filter((n) => values[n].trim()).map((n) => [n, values[n].trim()]));
      const answer = await api.get('/v2/identities/byPii', {
        ...query,
        explain: true,
        template: 5,
        limit: 1,
        minScore: 0,
      });
      setReply(answer);
      setMine(true);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(fieldErrors(error.body));
        setFailure(error.message);
      } else setFailure('The server could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const top = topExplained(reply);
  const steps = top ? waterfall(top.explain.pii, top.score, MODEL.prior, FIELDS, FIELD_LABELS) : [];
  const level = (s: Step) =>
    s.key === 'prior'
      ? `${MODEL.prior} of candidates`
      : s.key === 'swap'
        ? 'first and last name swapped'
        : (top?.explain.pii.fields[s.key]?.level ?? '');
  const who = top
    ? [
        `${top.firstName ?? ''} ${top.lastName ?? ''}`.trim(),
        top.address,
        [top.city, top.state, top.zip].filter(Boolean).join(' '),
      ]
        .filter((p) => typeof p === 'string' && p)
        .join(', ')
    : '';

  return (
    <Box>
      {signedIn ? (
        <Typography sx={{ mb: 2 }}>
          Enter a name and address: the page asks{' '}
          <code>GET /v2/identities/byPii?…&amp;explain=true&amp;minScore=0&amp;limit=1</code> (so you see the best
          candidate even below the default minimum of {LOOKUP_LIMITS.piiMinScore}) and draws its fields' shares. The
          call is a real lookup: it counts toward your organization's usage.
        </Typography>
      ) : (
        <Alert severity="info" sx={{ mb: 2 }}>
          You are seeing a real reply we captured from the server for the example below.{' '}
          <Link component={RouterLink} to="/login" color="inherit" sx={{ fontWeight: 600 }}>
            Sign in
          </Link>{' '}
          to score your own name and address.
        </Alert>
      )}
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        aria-label="Score calculator"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 200px), 1fr))', mb: 2 }}
      >
        {PII_INPUTS.map((name) => (
          <TextField
            key={name}
            name={name}
            label={INPUT_LABELS[name]}
            value={values[name]}
            disabled={busy}
            onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
            error={Boolean(errors[name])}
            helperText={errors[name]}
            required={name === 'firstName' || name === 'lastName'}
            slotProps={{ htmlInput: { 'data-testid': `calc-${name}`, readOnly: !signedIn } }}
          />
        ))}
        {signedIn && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Button type="submit" variant="contained" disabled={busy} data-testid="calc-submit">
              Score this person
            </Button>
            {busy && <CircularProgress size={24} aria-label="Looking up" />}
          </Box>
        )}
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box aria-live="polite" data-testid="calc-result" data-source={mine ? 'api' : 'example'}>
        {top ? (
          <>
            <Typography sx={{ mb: 1 }} data-testid="calc-summary">
              {mine ? 'Best candidate' : 'Example reply'}: identity {String(top.id ?? '')}
              {who ? ` (${who})` : ''}, score <strong data-testid="calc-score">{top.score}</strong>, match weight{' '}
              {top.explain.pii.weight} bits{top.explain.pii.swapped ? ', names taken swapped' : ''}.
            </Typography>
            <Suspense fallback={<CircularProgress aria-label="Loading the chart" />}>
              <WaterfallChart steps={steps} score={top.score} level={level} />
            </Suspense>
          </>
        ) : (
          <Alert severity="info" data-testid="calc-none">
            Nobody was found to compare with: the search found no candidate near that place with a similar name, house
            number or street.
          </Alert>
        )}
      </Box>
    </Box>
  );
}
