/** Waiting in the fault suite: a pause, and a promise that must settle within a bound (or the test fails saying so). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { within } from '../time-limit';
