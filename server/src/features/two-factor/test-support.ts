/** Helpers for the two-factor tests: codes computed from a secret with otplib, as an authenticator app would. */
import { TWO_FACTOR_PATHS, TWO_FACTOR_RULES } from '@tessera/common/two-factor';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { expect } from 'vitest';
import { CONSOLE_HEADERS } from '../../test/harness';

const PERIOD = TWO_FACTOR_RULES.periodSeconds;

/**
 * Waits out the last seconds of a 30-second step, so a test's codes are computed and checked within one step
 * (a test takes well under a second; this is no assertion about time).
 */
export async function awayFromStepEdge(): Promise<void> {
  const into = (Date.now() / 1000) % PERIOD;
  if (into > PERIOD - 4) await new Promise((resolve) => setTimeout(resolve, (PERIOD - into + 0.2) * 1000));
}

/** The app's code for the step `offset` steps from now. */
export function codeFor(secret: string, offset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * PERIOD });
}

export const post = (app: FastifyInstance, url: string, cookie: string, payload: unknown = {}) =>
  app.inject({ method: 'POST', url, headers: { ...CONSOLE_HEADERS, cookie }, payload: payload as object });

/** Turns two-factor sign-in on through the routes; the confirming code is the previous step's (clock drift). */
export async function enrolThroughApi(app: FastifyInstance, cookie: string) {
  await awayFromStepEdge();
  const started = await post(app, TWO_FACTOR_PATHS.enrol, cookie);
  expect(started.statusCode).toBe(200);
  const { secret } = started.json().enrolment as { secret: string };
  const confirmed = await post(app, TWO_FACTOR_PATHS.confirm, cookie, { code: await codeFor(secret, -1) });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}
