/**
 * How the webhooks page words an endpoint's and a delivery's state (issue 33): an endpoint is enabled, disabled by a
 * person, or disabled by its run of failures, with when; a delivery is pending, succeeded or failed, with what the
 * last attempt got. Times are the console's one format (common/src/dates.ts), to the second where attempts a few
 * seconds apart must read apart.
 */
import { formatDate } from '@tessera/common/dates';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '@tessera/common/webhooks';

/** The default format with seconds, for attempts and retries. */
export const SECONDS_FORMAT = 'M/D/YY h:mm:ssa';
export const atSeconds = (value: string | null) => formatDate(value, SECONDS_FORMAT);

export type EndpointState = 'enabled' | 'manual' | 'failures';

export const endpointState = (e: Pick<WebhookEndpoint, 'enabled' | 'disabledReason'>): EndpointState =>
  e.enabled ? 'enabled' : (e.disabledReason ?? 'manual');

/** "Enabled", "Disabled by you on {date}" or "Disabled after {n} failures on {date}". */
export function endpointStatus(
  e: Pick<WebhookEndpoint, 'enabled' | 'disabledReason' | 'disabledAt' | 'consecutiveFailures'>,
): string {
  const state = endpointState(e);
  if (state === 'enabled') return 'Enabled';
  const when = e.disabledAt ? ` on ${formatDate(e.disabledAt)}` : '';
  if (state === 'manual') return `Disabled by you${when}`;
  const n = e.consecutiveFailures;
  return `Disabled after ${n.toLocaleString('en-US')} ${n === 1 ? 'failure' : 'failures'}${when}`;
}

export const DELIVERY_STATUS_LABEL: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

export const DELIVERY_STATUS_COLOR: Record<WebhookDeliveryStatus, 'info' | 'success' | 'error'> = {
  pending: 'info',
  succeeded: 'success',
  failed: 'error',
};

/** "1,234 ms", or "" when there is none yet. */
export const latency = (ms: number | null) => (ms === null ? '' : `${Math.round(ms).toLocaleString('en-US')} ms`);

/** What an attempt got: the receiver's status, or why none came. */
export function attemptOutcome(a: Pick<WebhookAttempt, 'statusCode' | 'error'>): string {
  if (a.statusCode !== null) return a.error ? `${a.statusCode}: ${a.error}` : String(a.statusCode);
  return a.error ?? 'No answer';
}

/** When the next attempt is due: a time while pending (none while its endpoint is disabled), else "None". */
export function nextAttempt(d: Pick<WebhookDelivery, 'status' | 'nextAttemptAt'>, endpointEnabled = true): string {
  if (d.status !== 'pending') return 'None';
  if (!endpointEnabled) return 'When enabled';
  return d.nextAttemptAt ? atSeconds(d.nextAttemptAt) : 'Soon';
}

/** Whether the log should look again soon: some delivery shown may still change. */
export const anyPending = (deliveries: readonly Pick<WebhookDelivery, 'status'>[]) =>
  deliveries.some((d) => d.status === 'pending');
