/** The paths of the liveness and readiness probes: answered while the server drains (the drain refuses the rest). */
export const PROBE_PATHS = { live: '/livez', ready: '/readyz' } as const;

export const isProbePath = (url: string): boolean => {
  const path = url.split('?')[0];
  return path === PROBE_PATHS.live || path === PROBE_PATHS.ready;
};
