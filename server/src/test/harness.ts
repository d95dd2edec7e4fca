/**
 * Test harness: one real database per worker (in-memory PGlite, or the run's PostgreSQL database), the real
 * app built on it, and factories that make fresh organizations and users so tests never share rows.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Role } from '@tessera/common/roles';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { contracts, organizations, users } from '../db/schema';
import { currentAgreement, recordAcceptance } from '../features/terms/repo';
import type { Limiter } from '../features/throttle/limiter';
import type { SlidingLimiter } from '../features/throttle/sliding';
import { createUser } from '../features/users/service';
import { loggerOptions } from '../logger';
import { type Fanout, memoryFanout } from '../socket/fanout';
import type {} from './provided-context';
import { scratchDir } from './scratch-dir';

let shared: Promise<Database> | undefined;

/** The worker's database, migrated. Never closed by tests; the worker's exit ends it. */
export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const url = inject('databaseUrl');
    const database = await openDatabase({ url, dataDir: null, poolSize: 4 });
    if (!url) await migrate(database);
    return database;
  })();
  return shared;
}

/** A folder that looks like a console build: index.html with relative asset paths, and one hashed asset. */
export function consoleBuild(): string {
  const dir = scratchDir('web');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="./assets/index-abc123.js"></script>' +
      '<link rel="icon" href="./favicon.svg"></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(dir, 'assets/index-abc123.js'), 'console.log("console")');
  writeFileSync(path.join(dir, 'assets/index-abc123.js.gz'), gzipSync('console.log("console")'));
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

let dataDir: string | undefined;
/** A scratch DATA_DIR per test worker, so the outbox and uploads never land in the checkout. */
export function testDataDir(): string {
  dataDir ??= scratchDir('test-data');
  return dataDir;
}

/** The PUBLIC_URL every test app has. */
export const TEST_PUBLIC_URL = 'http://localhost:3000';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_PUBLIC_URL,
    STATIC_DIR: consoleBuild(),
    TESSERA_VERSION: 'test-1',
    DATA_DIR: testDataDir(),
    // No test app sends webhooks unless its test asks (features/webhooks): the shared database may hold deliveries
    // to addresses that only their own test's receiver answers.
    WEBHOOK_WORKER: 'false',
    JOB_RUNNER: 'false', // likewise bulk jobs: a test runs its own (features/bulk-jobs)
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  fanout: Fanout;
  logs: string[];
}

export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    fanout?: Fanout;
    database?: Database;
    limiter?: Limiter;
    rates?: SlidingLimiter;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await testDatabase());
  const config = testConfig(options.env);
  const fanout = options.fanout ?? memoryFanout();
  const logs: string[] = [];
  const logger = pino(loggerOptions('info'), { write: (line: string) => void logs.push(line) });
  const app = await buildApp({ config, database, fanout, logger, limiter: options.limiter, rates: options.rates });
  return { app, database, config, fanout, logs };
}

export const PASSWORD = 'Corr3ct-horse!';

export interface Member {
  id: number;
  email: string;
  role: Role;
  organizationId: number | null;
}

export async function makeOrganization(
  database: Database,
  name = `Org ${randomUUID().slice(0, 8)}`,
  options: { emailDomain?: string; acceptUsers?: boolean } = {},
) {
  const [org] = await database.db
    .insert(organizations)
    .values({ name, ...options })
    .returning();
  return org!;
}

/** A fresh address, at the organization's e-mail domain when it has one (as its real members would have). */
export async function newAddress(database: Database, label: string, organizationId: number | null): Promise<string> {
  const [org] =
    organizationId === null
      ? []
      : await database.db
          .select({ domain: organizations.emailDomain })
          .from(organizations)
          .where(eq(organizations.id, organizationId));
  return `${label}-${randomUUID()}@${org?.domain ?? 'tessera.test'}`;
}

/** A domain no other test uses. */
export const uniqueDomain = () => `d${randomUUID().slice(0, 12)}.example`;

export async function makeUser(
  database: Database,
  role: Role = 'user',
  organizationId: number | null = null,
  options: { acceptTerms?: boolean; allowedRecordTypes?: string[] } = {},
): Promise<Member> {
  const email = await newAddress(database, role, organizationId);
  const row = await createUser(database, { email, role, password: PASSWORD, organizationId });
  if (options.allowedRecordTypes) {
    await database.db.update(users).set({ allowedRecordTypes: options.allowedRecordTypes }).where(eq(users.id, row.id));
  }
  // Most tests want a user past the agreement gate (spec §4); the terms tests ask for one before it.
  if (options.acceptTerms !== false) {
    const agreement = await currentAgreement(database.db);
    if (agreement) await recordAcceptance(database.db, row.id, agreement.id, '127.0.0.1');
  }
  return { id: row.id, email: row.email, role, organizationId };
}

/** A contract in force for the organization (a year either side of now), priced as given. */
export async function makeContract(
  database: Database,
  organizationId: number,
  values: Partial<typeof contracts.$inferInsert> = {},
) {
  const year = 365 * 24 * 3600_000;
  const [row] = await database.db
    .insert(contracts)
    .values({
      organizationId,
      startsAt: new Date(Date.now() - year),
      endsAt: new Date(Date.now() + year),
      pricePerRequest: 0.001,
      pricePerIdentity: 0.01,
      ...values,
    })
    .returning();
  return row!;
}

/** A user of a fresh organization with a contract in force: someone who may call the lookup API. */
export async function makeCustomer(
  database: Database,
  role: Role = 'user',
  options: { allowedRecordTypes?: string[]; contract?: Partial<typeof contracts.$inferInsert> } = {},
): Promise<Member> {
  const org = await makeOrganization(database);
  await makeContract(database, org.id, options.contract);
  return makeUser(database, role, org.id, { allowedRecordTypes: options.allowedRecordTypes });
}

export const CONSOLE_HEADERS = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

/** Signs in through the real endpoint; returns the Cookie header a browser would send next. */
export async function signIn(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: CONSOLE_HEADERS,
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A user without a password (no argon2 cost): for tests that act on users rather than as them. */
export async function makeAccount(database: Database, role: Role = 'user', organizationId: number | null = null) {
  const email = await newAddress(database, role, organizationId);
  const row = await createUser(database, { email, role, organizationId });
  return { id: row.id, email: row.email, role, organizationId } satisfies Member;
}

/** A 1×1 PNG. */
export const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A multipart/form-data body with one file field, as the console's upload client sends it. */
export function multipartFile(
  bytes: Buffer,
  options: { field?: string; filename?: string; type?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tessera${randomUUID()}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; ` +
    `filename="${options.filename ?? 'picture.png'}"\r\nContent-Type: ${options.type ?? 'image/png'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'XMLHttpRequest' },
  };
}
