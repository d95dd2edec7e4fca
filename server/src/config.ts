/** Environment -> typed configuration, with defaults that run the product embedded on one machine. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? null : v.trim()));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('localhost'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional,
  REDIS_URL: optional,
  PUBLIC_URL: optional,
  SMTP_URL: optional,
  ROOT_EMAIL: optional,
  ROOT_PASSWORD: optional,
  CDN_HOST: optional,
  CI_HOST: optional,
  STATIC_DIR: optional,
  TESSERA_VERSION: optional,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  publicUrl: URL;
  smtpUrl: string | null;
  rootEmail: string | null;
  rootPassword: string | null;
  /** Prefix for hashed console assets: '' for same origin, or 'https://{CDN_HOST}'. */
  assetPrefix: string;
  ciHost: string | null;
  staticDir: string;
  versionOverride: string | null;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
}

export class ConfigError extends Error {}

function cdnPrefix(host: string | null): string {
  if (!host) return '';
  const withScheme = /^https?:\/\//i.test(host) ? host : `https://${host}`;
  const url = new URL(withScheme);
  return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl,
    smtpUrl: e.SMTP_URL,
    rootEmail: e.ROOT_EMAIL,
    rootPassword: e.ROOT_PASSWORD,
    assetPrefix: cdnPrefix(e.CDN_HOST),
    ciHost: e.CI_HOST,
    staticDir: path.resolve(e.STATIC_DIR ?? path.join(repoRoot, 'web/dist')),
    versionOverride: e.TESSERA_VERSION,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
  };
}

export const REPO_ROOT = repoRoot;
