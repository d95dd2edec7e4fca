/** A promise bounded in time: it rejects, naming `what`, if `work` has not settled within `ms` (its timer cleared). */
export function within<T>(work: Promise<T>, ms: number, what = 'the answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => {}); // a late failure, after the bound, is nobody's to handle
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
