/**
 * With explain=true and JSON, each identity's evidence drawn as bars: a name-and-address match's per-field match
 * weights (bits; negative when a field disagrees) and each exact key's probability. Loaded only when drawn.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';

interface KeyEvidence {
  input: string;
  probability: number;
}
interface PiiEvidence {
  weight: number;
  fields: Record<string, { level: string; weight: number }>;
}
export interface ExplainedIdentity {
  id?: unknown;
  score?: unknown;
  explain?: { keys?: KeyEvidence[]; pii?: PiiEvidence };
}

/** The bars of one identity: label and value, PII fields in bits and keys in percent. */
export function explainBars(explain: ExplainedIdentity['explain']): {
  fields: { label: string; value: number }[];
  keys: { label: string; value: number }[];
} {
  const fields = Object.entries(explain?.pii?.fields ?? {}).map(([name, f]) => ({
    label: `${name} (${f.level})`,
    value: f.weight,
  }));
  const keys = (explain?.keys ?? []).map((k) => ({ label: k.input, value: Math.round(k.probability * 1000) / 10 }));
  return { fields, keys };
}

/** The identities of a JSON reply (GET: identities; POST: each result's), those with explain, at most `max`. */
export function explainedIdentities(reply: unknown, max = 10): ExplainedIdentity[] {
  const body = reply as { identities?: ExplainedIdentity[]; results?: { identities?: ExplainedIdentity[] }[] } | null;
  const all = body?.identities ?? (body?.results ?? []).flatMap((r) => r.identities ?? []);
  return all.filter((i) => i && typeof i === 'object' && i.explain).slice(0, max);
}

function Bars({ title, bars, unit }: { title: string; bars: { label: string; value: number }[]; unit: string }) {
  const theme = useTheme();
  if (bars.length === 0) return null;
  const text = bars.map((b) => `${b.label} ${b.value} ${unit}`).join(', ');
  return (
    <Box role="img" aria-label={`${title}: ${text}`} sx={{ minWidth: 0 }}>
      <BarChart
        height={Math.max(120, 36 * bars.length + 60)}
        layout="horizontal"
        skipAnimation
        yAxis={[{ scaleType: 'band', data: bars.map((b) => b.label), width: 130 }]}
        xAxis={[{ label: unit }]}
        series={[{ data: bars.map((b) => b.value), label: title, color: theme.palette.primary.main }]}
        hideLegend
      />
    </Box>
  );
}

export default function ExplainCharts({ reply }: { reply: unknown }) {
  const identities = explainedIdentities(reply);
  if (identities.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="explain-charts">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Score explanation
      </Typography>
      {identities.map((identity, i) => {
        const { fields, keys } = explainBars(identity.explain);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a template may leave out the id
          <Box key={i} sx={{ mt: 1 }} data-testid="explain-identity">
            <Typography variant="body2">
              Identity {String(identity.id ?? i + 1)}, score {String(identity.score ?? '')}
            </Typography>
            <Bars title="Field match weight" bars={fields} unit="bits" />
            <Bars title="Key probability" bars={keys} unit="%" />
          </Box>
        );
      })}
    </Box>
  );
}
