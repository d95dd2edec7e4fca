import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useHoverIntent } from './use-hover-intent';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

describe('hover intent (spec §9 submenu delays)', () => {
  it('opens once the pointer has rested for the open delay, and closes the close delay after it leaves', () => {
    const { result } = renderHook(() => useHoverIntent(300, 250));
    act(() => result.current.enter());
    advance(299);
    expect(result.current.open).toBe(false);
    advance(1);
    expect(result.current.open).toBe(true);
    act(() => result.current.leave());
    advance(249);
    expect(result.current.open).toBe(true);
    advance(1);
    expect(result.current.open).toBe(false);
  });

  it('does not open for a pointer passing through, nor close for one coming back in time', () => {
    const { result } = renderHook(() => useHoverIntent(300, 250));
    act(() => result.current.enter());
    advance(200);
    act(() => result.current.leave());
    advance(1000);
    expect(result.current.open).toBe(false);
    act(() => result.current.toggle());
    expect(result.current.open).toBe(true);
    act(() => result.current.leave());
    advance(200);
    act(() => result.current.enter());
    advance(1000);
    expect(result.current.open).toBe(true);
    act(() => result.current.close());
    expect(result.current.open).toBe(false);
  });
});
