/** Waiting in the fault suite: a pause, and a promise that must settle within a bound (or the test fails saying so). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
    }),
  ]);
}
