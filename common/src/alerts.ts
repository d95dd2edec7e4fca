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

export const SIGNED_OUT_ALERT: Alert = { type: 'info', title: 'Signed Out', text: 'Your session has ended.' };
export const OFFLINE_TEXT = 'The server is currently unreachable.';
export const VALIDATION_FAILED_ALERT: Alert = {
  type: 'error',
  title: 'Validation failed.',
  text: 'Please fix the error(s) below, and try again.',
};
