/**
 * Usage alerts on an organization's page (issue 16, decision 0029), for its administrators and super+: when the
 * console and e-mail warn them (shares of the monthly limit, a spike in daily requests), and the alerts that fired
 * lately, so someone who was away sees them here. A firing pushed while the page is open reloads the list.
 */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import {
  isMultiple,
  parseThresholds,
  SPIKE_MIN_AVERAGE,
  SPIKE_WINDOW_DAYS,
  USAGE_ALERT_LIMITS,
  USAGE_ALERT_MESSAGES,
  type UsageAlertFiring,
  type UsageAlertSettings,
  type UsageAlerts,
  usageAlertOf,
} from '@tessera/common/usage-alerts';
import { useEffect, useRef } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { EmptyRow } from '../empty-row';
import { fromBoolean, SwitchInput } from '../switch-input';

type Values = { thresholdsOn: string; thresholds: string; spikeOn: string; spikeMultiple: string };

const valuesOf = (s: UsageAlertSettings): Values => ({
  thresholdsOn: fromBoolean(s.thresholdsOn),
  thresholds: s.thresholds.join(', '),
  spikeOn: fromBoolean(s.spikeOn),
  spikeMultiple: String(s.spikeMultiple),
});

/** The body a save sends, from values the form has checked. */
export function usageAlertsBody(values: Values): UsageAlertSettings {
  const thresholds = parseThresholds(values.thresholds);
  return {
    thresholdsOn: values.thresholdsOn === 'true',
    thresholds: Array.isArray(thresholds) ? thresholds : [],
    spikeOn: values.spikeOn === 'true',
    spikeMultiple: Number(values.spikeMultiple),
  };
}

const checkThresholds = (value: string) => {
  const parsed = parseThresholds(value);
  return Array.isArray(parsed) ? undefined : parsed.message;
};
const checkMultiple = (value: string) => (isMultiple(Number(value)) ? undefined : USAGE_ALERT_MESSAGES.multiple);

const pathOf = (organizationId: number) => `${RESOURCE_PATHS.organizations}/${organizationId}/usage-alerts`;

export function UsageAlertsSection({ organizationId, name }: { organizationId: number; name: string }) {
  const stored = useStore((s) => s.areas.usageAlerts) as UsageAlerts | undefined;
  const fired = useStore((s) => s.areas.usageAlertFired) as UsageAlertFiring | undefined;
  const alerts = stored?.organizationId === organizationId ? stored : undefined;
  const form = useForm<Values>({ thresholdsOn: '', thresholds: '', spikeOn: '', spikeMultiple: '' });
  const loaded = useRef(false);
  const path = pathOf(organizationId);

  useFetch(path);

  useEffect(() => {
    if (!alerts || loaded.current) return;
    loaded.current = true;
    form.reset(valuesOf(alerts));
  }, [alerts, form.reset]);

  // A firing pushed over the socket for this organization: read the list again.
  const firedHere = fired?.organizationId === organizationId ? fired.id : null;
  useEffect(() => {
    if (firedHere !== null) void api.get(path).catch(() => {});
  }, [firedHere, path]);

  async function save(values: Values) {
    const reply = await api.put<{ usageAlerts: UsageAlerts }>(path, usageAlertsBody(values));
    form.reset(valuesOf(reply.usageAlerts));
    useStore.getState().addAlert({ type: 'success', title: 'Usage Alerts Saved', text: `For ${name}.` });
  }

  return (
    <section aria-labelledby="usage-alerts-heading" id="usage-alerts">
      <Typography variant="h5" component="h2" id="usage-alerts-heading" sx={{ mt: 4, mb: 1 }}>
        Usage Alerts
      </Typography>
      <Typography sx={{ mb: 2, maxWidth: 720 }}>
        The organization's administrators are alerted on the console and by e-mail, once a month for each share of the
        contract's monthly limit reached, and once a day when the day's requests exceed a multiple of the average of the
        previous {SPIKE_WINDOW_DAYS} days (with at least {SPIKE_WINDOW_DAYS} days of calls and an average of{' '}
        {SPIKE_MIN_AVERAGE} or more). Months and days are UTC.
      </Typography>
      {alerts && (
        <FormContainer form={form} onValid={save} sx={{ maxWidth: 560 }} aria-label="Usage alert settings">
          <Stack spacing={1}>
            <SwitchInput name="thresholdsOn" label="Alert at shares of the monthly limit" />
            <TextInput
              name="thresholds"
              label="Shares of the monthly limit (%)"
              what="the shares of the monthly limit"
              maxLength={40}
              check={checkThresholds}
              helperText={`Up to ${USAGE_ALERT_LIMITS.maxThresholds} whole percentages, separated by commas, e.g. 80, 100.`}
            />
            <SwitchInput name="spikeOn" label="Alert on a spike in daily requests" />
            <TextInput
              name="spikeMultiple"
              label="Spike: times the daily average"
              what="a multiple"
              rule="number"
              check={checkMultiple}
              helperText={`From ${USAGE_ALERT_LIMITS.multipleMin} to ${USAGE_ALERT_LIMITS.multipleMax}, e.g. 3.`}
            />
            <Stack direction="row" spacing={2}>
              <Button type="submit" variant="contained" disabled={form.busy}>
                Save Alerts
              </Button>
            </Stack>
          </Stack>
        </FormContainer>
      )}
      <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
        Recent Alerts
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Recent usage alerts">
          <TableHead>
            <TableRow>
              <TableCell>Time</TableCell>
              <TableCell>Alert</TableCell>
              <TableCell>Details</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(alerts?.firings ?? []).map((firing) => {
              const alert = usageAlertOf(firing, name);
              return (
                <TableRow key={firing.id} data-testid="usage-alert-row">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(firing.firedAt)}</TableCell>
                  <TableCell>{alert.title.replace(/^Usage alert: /, '')}</TableCell>
                  <TableCell>{alert.text}</TableCell>
                </TableRow>
              );
            })}
            {alerts && alerts.firings.length === 0 && <EmptyRow columns={3}>No usage alerts have fired yet.</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
    </section>
  );
}
