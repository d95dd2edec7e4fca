import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureClientErrors, errorStack, isIgnorable } from './client-errors';
import { useStore } from './store';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  useStore.setState({ alerts: [] });
  vi.restoreAllMocks();
});

describe('client errors (spec §8)', () => {
  it('reports uncaught errors and rejections, and shows them in development', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reports: string[] = [];
    stop = captureClientErrors((stack) => reports.push(stack), true);
    const error = new TypeError('x is undefined');
    window.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.assign(rejection, { reason: new Error('fetch failed') });
    window.dispatchEvent(rejection);
    expect(reports).toHaveLength(2);
    expect(reports[0]).toContain('TypeError: x is undefined');
    expect(reports[1]).toContain('Error: fetch failed');
    expect(useStore.getState().alerts.map((a) => a.title)).toEqual(['Client error']);
  });

  it('ignores ResizeObserver noise and keeps production quiet', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reports: string[] = [];
    stop = captureClientErrors((stack) => reports.push(stack), false);
    window.dispatchEvent(
      new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }),
    );
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('real'), message: 'real' }));
    expect(reports).toHaveLength(1);
    expect(useStore.getState().alerts).toEqual([]);
    expect(isIgnorable('ResizeObserver loop limit exceeded')).toBe(true);
    expect(errorStack('plain')).toBe('plain');
  });
});
