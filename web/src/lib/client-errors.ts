/** Spec §8: uncaught client errors, except ResizeObserver noise, go over the socket and to the console. */
import { useStore } from './store';

type Report = (stack: string) => void;

export function isIgnorable(message: string): boolean {
  return /ResizeObserver/i.test(message);
}

export function errorStack(reason: unknown): string {
  if (reason instanceof Error) return reason.stack ?? `${reason.name}: ${reason.message}`;
  return String(reason);
}

export function captureClientErrors(report: Report, showInDevelopment: boolean): () => void {
  const handle = (reason: unknown, message: string) => {
    if (isIgnorable(message)) return;
    const stack = errorStack(reason ?? message);
    console.error(stack);
    report(stack);
    if (showInDevelopment) useStore.getState().addAlert({ type: 'error', title: 'Client error', text: stack });
  };
  const onError = (event: ErrorEvent) => handle(event.error, event.message ?? '');
  const onRejection = (event: PromiseRejectionEvent) => handle(event.reason, errorStack(event.reason));
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
