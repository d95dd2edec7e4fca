/** Spec §3 alert shape, shared by the client's alert stack and server-sent notices. */
export const ALERT_TYPES = ['success', 'info', 'warning', 'error'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export interface Alert {
  type: AlertType;
  title: string;
  text?: string;
  icon?: string;
  /** Trusted HTML, only ever from our own code. */
  html?: string;
}

/**
 * A server-pushed `notice` as the alert stack may show it: its type, title and text only. Pushed HTML is never
 * kept (only the console's own code may give an alert HTML), and anything else is not an alert.
 */
export function readNotice(value: unknown): Alert | null {
  if (!value || typeof value !== 'object') return null;
  const { type, title, text } = value as Record<string, unknown>;
  if (!ALERT_TYPES.includes(type as AlertType) || typeof title !== 'string' || title === '') return null;
  return { type: type as AlertType, title, ...(typeof text === 'string' ? { text } : {}) };
}

export const SIGNED_OUT_ALERT: Alert = { type: 'info', title: 'Signed Out', text: 'Your session has ended.' };
export const OFFLINE_TEXT = 'The server is currently unreachable.';
export const VALIDATION_FAILED_ALERT: Alert = {
  type: 'error',
  title: 'Validation failed.',
  text: 'Please fix the error(s) below, and try again.',
};
