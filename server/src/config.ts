/** Environment -> typed configuration, with defaults that run the product embedded on one machine. */
import { existsSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STREAM_LIMITS } from '@tessera/common/lookups';
import { IDENTITY_PROVIDERS, type ProviderId } from '@tessera/common/providers';
import { canonicalEmail, isEmail } from '@tessera/common/validation';
import { z } from 'zod';
import type { PoolMode } from './db/client';
import { ClusterSettingError, parseClusters } from './db/cluster-setting';
import { type DatabaseTimeouts, databaseTimeouts } from './db/timeouts';
import { type JobSettings, jobSettingsFromEnv } from './features/bulk-jobs/settings';
import { type Seller, sellerFromEnv } from './features/invoices/seller';
import { type WebhookSettings, webhookSettingsFromEnv } from './features/webhooks/settings';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? null : v.trim()));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('localhost'),
  // Blank is unset, as for the others: `DATA_DIR=` from an unset shell variable put the database in the working folder.
  DATA_DIR: optional.transform((v) => v ?? './data'),
  DATABASE_URL: optional,
  REDIS_URL: optional,
  REDIS_NAMESPACE: optional,
  KEY_ENCRYPTION_KEY: optional,
  PUBLIC_URL: optional,
  SMTP_URL: optional,
  SUPPORT_EMAIL: optional,
  ROOT_EMAIL: optional,
  ROOT_PASSWORD: optional,
  CDN_HOST: optional,
  CI_HOST: optional,
  /** Further PostgreSQL nodes for Clusters and Query (db/cluster-setting.ts). */
  CLUSTERS: optional,
  /** statement_timeout of each query console statement. */
  QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  STATIC_DIR: optional,
  CLIENTS_DIR: optional,
  TESSERA_VERSION: optional,
  SEED_IDENTITIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(5_000),
  /** `transaction` behind PgBouncer in transaction mode (decision 0042). */
  DATABASE_POOL_MODE: z.enum(['session', 'transaction'] satisfies PoolMode[]).default('session'),
  /** Months of usage rows kept; older rows are deleted hourly, rollups stay (decision 0029). 0 keeps them all. */
  USAGE_RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(13),
  /** Issue 22 (decision 0039): months of lookup audit rows, days of page views, months of contact messages; 0 keeps all. */
  LOOKUP_AUDIT_RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(24),
  PAGE_VIEW_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(90),
  CONTACT_MESSAGE_RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(24),
  /** Minutes a support chat message may wait for an answer before it is mailed to SUPPORT_EMAIL; 0: never. */
  CHAT_UNANSWERED_MINUTES: z.coerce.number().int().min(0).max(10_080).default(15),
  /** Seconds a streamed PUT may sit with nothing read or sent before it is ended (issue 28, finding 14). */
  STREAM_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(STREAM_LIMITS.idleSeconds),
  DRAIN_DELAY_SECONDS: z.coerce.number().int().min(0).max(60).default(0),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url('OTEL_EXPORTER_OTLP_ENDPOINT must be a URL').optional(),
  METRICS_TOKEN: z
    .string()
    .min(24, 'METRICS_TOKEN must be at least 24 characters')
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
    .optional(),
  /** Where release artifacts are kept (default DATA_DIR/releases); environments deploy from there (decision 0038). */
  RELEASES_DIR: optional,
  /** Deployment environments: JSON, or the path of a JSON file; none: the `local` environment (decision 0038). */
  ENVIRONMENTS: optional,
  /** Server processes on PostgreSQL (decision 0043); unset: one per core, and 1 on the embedded database. */
  WEB_CONCURRENCY: optional,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  /** System Administrators and Maintainers must turn on two-factor sign-in before anything else (decision 0063). */
  REQUIRE_2FA_FOR_STAFF: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** One outside sign-in provider's OpenID Connect client registration. */
export interface OauthClientSettings {
  clientId: string;
  clientSecret: string;
  /** Where discovery starts; the discovered issuer must equal it. */
  issuer: URL;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /**
   * Prefix of every Redis channel and key after `tessera:` (REDIS_NAMESPACE). Unset: openStorage derives it from
   * the database (decision 0019), so deployments sharing one Redis never see each other.
   */
  redisNamespace: string | null;
  /** Seals API key secrets at rest (32 bytes, base64); none: one generated and kept in the database. */
  keyEncryptionKey: Buffer | null;
  publicUrl: URL;
  smtpUrl: string | null;
  /** Where Contact Us messages are mailed (SUPPORT_EMAIL); none: they are only stored. */
  supportEmail: string | null;
  rootEmail: string | null;
  rootPassword: string | null;
  /** Prefix for hashed console assets: '' for same origin, or 'https://{CDN_HOST}'. */
  assetPrefix: string;
  ciHost: string | null;
  /** CLUSTERS: name -> PostgreSQL URL of nodes besides the main database (which is always `main`). */
  clusters: Record<string, string>;
  /** QUERY_TIMEOUT_MS: the query console's statement timeout. */
  queryTimeoutMs: number;
  staticDir: string;
  /** The client libraries' packages (scripts/build-clients.mjs), offered at /clients/{file}. */
  clientsDir: string;
  versionOverride: string | null;
  /** WEB_CONCURRENCY: server processes, a cluster's workers when above 1; always 1 on the embedded database. */
  webConcurrency: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  /** Generated identities loaded when the embedded database has no people yet; 0 turns seeding off. */
  seedIdentities: number;
  /** How long the server waits on PostgreSQL (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_CONNECT_TIMEOUT_MS). */
  databaseTimeouts: DatabaseTimeouts;
  /** DATABASE_POOL_MODE: how connections reach PostgreSQL, directly (`session`) or via PgBouncer's `transaction`. */
  databasePoolMode: PoolMode;
  /** Usage rows older than this many months are deleted (rollups stay); 0 keeps every row. */
  usageRetentionMonths: number;
  /** Issue 22: retention of the lookup audit trail, page views and contact messages (0 keeps all). */
  dataRetention: { lookupAuditMonths: number; pageViewDays: number; contactMessageMonths: number };
  /** A support chat conversation waiting this long for an answer is mailed to the support address; 0: never. */
  chatUnansweredMinutes: number;
  /** STREAM_IDLE_SECONDS: a streamed PUT with nothing read or sent this long is ended. */
  streamIdleSeconds: number;
  /** DRAIN_DELAY_SECONDS: after SIGTERM, /readyz answers 503 and requests are still served this long before the close. */
  drainDelaySeconds: number;
  /** METRICS_TOKEN: the bearer token /metrics asks for; null: /metrics is off (404). */
  metricsToken: string | null;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go over OTLP/HTTP; null: no traces (nothing loaded). */
  otlpEndpoint: string | null;
  /** Release artifacts' folder (RELEASES_DIR, default DATA_DIR/releases). */
  releasesDir: string;
  /** ENVIRONMENTS as given (JSON or a file path), read by features/deployments/environments.ts; null: `local`. */
  environments: string | null;
  /** Configured outside sign-in providers: those with client id, secret and issuer all set. */
  oauth: Partial<Record<ProviderId, OauthClientSettings>>;
  /** REQUIRE_2FA_FOR_STAFF ('true' or '1'): super and root must have two-factor sign-in on (decision 0063). */
  require2faForStaff: boolean;
  /** SELLER_* and INVOICE_*: the seller, tax rate and payment terms printed on invoices (decision 0064). */
  seller: Seller;
  /** WEBHOOK_*: where deliveries may go, their retries, timeout and secret overlap, and whether to send (decision 0066). */
  webhooks: WebhookSettings;
  /** JOB_*: whether this process runs bulk jobs, how long results are kept, rows per chunk (decision 0068). */
  jobs: JobSettings;
}

export class ConfigError extends Error {}

function cdnPrefix(host: string | null): string {
  if (!host) return '';
  const withScheme = /^https?:\/\//i.test(host) ? host : `https://${host}`;
  const url = new URL(withScheme);
  return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** An issuer must be HTTPS; plain HTTP only on this machine's loopback (tests and local providers). */
function issuerUrl(variable: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`Invalid configuration: ${variable} must be an absolute URL.`);
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname);
  if ((url.protocol !== 'https:' && !loopbackHttp) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`Invalid configuration: ${variable} must be an https:// URL without query or fragment.`);
  }
  return url;
}

/** OAUTH_{PROVIDER}_{CLIENT_ID,CLIENT_SECRET,ISSUER}: a provider is configured only when all three are set. */
function oauthProviders(env: NodeJS.ProcessEnv): Config['oauth'] {
  const providers: Config['oauth'] = {};
  for (const { id } of IDENTITY_PROVIDERS) {
    const prefix = `OAUTH_${id.toUpperCase()}_`;
    const [clientId, clientSecret, issuer] = ['CLIENT_ID', 'CLIENT_SECRET', 'ISSUER'].map((name) =>
      env[prefix + name]?.trim(),
    );
    if (!clientId || !clientSecret || !issuer) continue;
    providers[id] = { clientId, clientSecret, issuer: issuerUrl(`${prefix}ISSUER`, issuer) };
  }
  return providers;
}

const REDIS_NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function redisNamespace(value: string | null): string | null {
  if (value !== null && !REDIS_NAMESPACE.test(value)) {
    throw new ConfigError(
      "Invalid configuration: REDIS_NAMESPACE must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
    );
  }
  return value;
}

function supportEmail(value: string | null): string | null {
  if (value === null) return null;
  const email = canonicalEmail(value);
  if (!isEmail(email)) throw new ConfigError('Invalid configuration: SUPPORT_EMAIL must be an e-mail address.');
  return email;
}

function encryptionKey(value: string | null): Buffer | null {
  if (!value) return null;
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) {
    throw new ConfigError('Invalid configuration: KEY_ENCRYPTION_KEY must be 32 bytes written in base64.');
  }
  return key;
}

/**
 * The console's folder, its links resolved once at start: web/dist links to one build (scripts/build-if-needed.mjs),
 * and a server keeps serving the build it started with while a newer one is made.
 */
function resolvedDir(dir: string): string {
  const absolute = path.resolve(dir);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}

function webConcurrency(value: string | null, databaseUrl: string | null): number {
  if (value === null) return databaseUrl ? availableParallelism() : 1;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= 256)) {
    throw new ConfigError('Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 256.');
  }
  if (n > 1 && !databaseUrl) {
    throw new ConfigError(
      'Invalid configuration: WEB_CONCURRENCY must be 1 on the embedded database, which belongs to one process; ' +
        'set DATABASE_URL to run several server processes.',
    );
  }
  return n;
}

function clusterSetting(value: string | null): Record<string, string> {
  try {
    return parseClusters(value);
  } catch (err) {
    if (err instanceof ClusterSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  let publicUrl: URL;
  try {
    publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  } catch {
    throw new ConfigError('Invalid configuration: PUBLIC_URL must be an absolute URL.');
  }
  if (e.DATABASE_URL && !/^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    throw new ConfigError('Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://.');
  }
  if (e.DATABASE_POOL_MODE === 'transaction' && !e.DATABASE_URL) {
    // The embedded database has no pool: a setting that would change nothing is more likely a lost DATABASE_URL.
    throw new ConfigError('Invalid configuration: DATABASE_POOL_MODE=transaction needs a PostgreSQL DATABASE_URL.');
  }
  const seller = sellerFromEnv(env);
  if ('problem' in seller) throw new ConfigError(`Invalid configuration: ${seller.problem}`);
  const webhooks = webhookSettingsFromEnv(env);
  if ('problem' in webhooks) throw new ConfigError(`Invalid configuration: ${webhooks.problem}`);
  const jobs = jobSettingsFromEnv(env);
  if ('problem' in jobs) throw new ConfigError(`Invalid configuration: ${jobs.problem}`);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisNamespace: redisNamespace(e.REDIS_NAMESPACE),
    keyEncryptionKey: encryptionKey(e.KEY_ENCRYPTION_KEY),
    publicUrl,
    smtpUrl: e.SMTP_URL,
    supportEmail: supportEmail(e.SUPPORT_EMAIL),
    rootEmail: e.ROOT_EMAIL,
    rootPassword: e.ROOT_PASSWORD,
    assetPrefix: cdnPrefix(e.CDN_HOST),
    ciHost: e.CI_HOST,
    clusters: clusterSetting(e.CLUSTERS),
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    staticDir: resolvedDir(e.STATIC_DIR ?? path.join(repoRoot, 'web/dist')),
    clientsDir: path.resolve(e.CLIENTS_DIR ?? path.join(repoRoot, 'clients/dist')),
    versionOverride: e.TESSERA_VERSION,
    webConcurrency: webConcurrency(e.WEB_CONCURRENCY, e.DATABASE_URL),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    seedIdentities: e.SEED_IDENTITIES,
    databaseTimeouts: databaseTimeouts(e.DATABASE_STATEMENT_TIMEOUT_MS, e.DATABASE_CONNECT_TIMEOUT_MS),
    databasePoolMode: e.DATABASE_POOL_MODE,
    usageRetentionMonths: e.USAGE_RETENTION_MONTHS,
    dataRetention: {
      lookupAuditMonths: e.LOOKUP_AUDIT_RETENTION_MONTHS,
      pageViewDays: e.PAGE_VIEW_RETENTION_DAYS,
      contactMessageMonths: e.CONTACT_MESSAGE_RETENTION_MONTHS,
    },
    chatUnansweredMinutes: e.CHAT_UNANSWERED_MINUTES,
    streamIdleSeconds: e.STREAM_IDLE_SECONDS,
    drainDelaySeconds: e.DRAIN_DELAY_SECONDS,
    metricsToken: e.METRICS_TOKEN ?? null,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    oauth: oauthProviders(env),
    releasesDir: path.resolve(e.RELEASES_DIR ?? path.join(e.DATA_DIR, 'releases')),
    environments: e.ENVIRONMENTS,
    require2faForStaff: e.REQUIRE_2FA_FOR_STAFF,
    seller,
    webhooks,
    jobs,
  };
}

export const REPO_ROOT = repoRoot;
