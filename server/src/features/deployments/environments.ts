/**
 * Deployment environments (decision 0038), from the ENVIRONMENTS setting: a JSON array, or the path of a file
 * holding one. Each has a name, its hosts, a deploy command as argv elements in which `{host}`, `{version}`,
 * `{artifact}` and `{sha256}` are replaced (it runs without a shell), how many hosts run at once, and a time limit
 * per host. None given: the `local` environment, two folders under DATA_DIR deployed by scripts/deploy-local.mjs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Environment } from '@tessera/common/deployments';
import { z } from 'zod';

export interface EnvironmentConfig extends Environment {
  command: string[];
  /** Seconds between SIGTERM and SIGKILL when a command is cancelled or runs out of time. */
  graceSeconds: number;
}

export class EnvironmentSettingError extends Error {}

const PREFIX = 'Invalid configuration: ENVIRONMENTS';

const environmentSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'a name is lowercase letters, digits, - and _'),
    hosts: z
      .array(z.string().trim().min(1).max(300))
      .min(1)
      .max(200)
      .refine((hosts) => new Set(hosts).size === hosts.length, 'hosts are named once each'),
    command: z.array(z.string().min(1).max(2000)).min(1).max(100),
    parallelism: z.number().int().min(1).max(100).default(1),
    timeoutSeconds: z.number().int().min(1).max(86_400).default(600),
    graceSeconds: z.number().int().min(0).max(600).default(5),
    serves: z.boolean().default(false),
  })
  .strict();

const settingSchema = z
  .array(environmentSchema)
  .min(1)
  .refine((envs) => new Set(envs.map((e) => e.name)).size === envs.length, 'environment names are used once each')
  .refine((envs) => envs.filter((e) => e.serves).length <= 1, 'at most one environment serves the console');

/** The environment of a machine without configuration: two host folders deployed to by a script of this repo. */
export function localEnvironment(dataDir: string, repoDir: string): EnvironmentConfig {
  return {
    id: 'local',
    name: 'local',
    hosts: [path.join(dataDir, 'hosts', 'local-1'), path.join(dataDir, 'hosts', 'local-2')],
    command: [
      process.execPath,
      path.join(repoDir, 'scripts', 'deploy-local.mjs'),
      '{host}',
      '{version}',
      '{artifact}',
      '{sha256}',
    ],
    parallelism: 1,
    timeoutSeconds: 300,
    graceSeconds: 5,
    serves: true,
  };
}

export function parseEnvironments(value: string | null, dataDir: string, repoDir: string): EnvironmentConfig[] {
  if (!value) return [localEnvironment(dataDir, repoDir)];
  let text = value;
  if (!value.startsWith('[')) {
    try {
      text = readFileSync(path.resolve(value), 'utf8');
    } catch {
      throw new EnvironmentSettingError(`${PREFIX} is neither a JSON array nor a readable file.`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvironmentSettingError(`${PREFIX} is not valid JSON.`);
  }
  const parsed = settingSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'list'}: ${i.message}`).join('; ');
    throw new EnvironmentSettingError(`${PREFIX}: ${problems}`);
  }
  return parsed.data.map((e) => ({ ...e, id: e.name }));
}

export interface CommandValues {
  host: string;
  version: string;
  artifact: string;
  sha256: string;
}

/** The command's argv with the placeholders replaced inside each element: values never become new arguments. */
export function commandFor(environment: Pick<EnvironmentConfig, 'command'>, values: CommandValues): string[] {
  return environment.command.map((part) =>
    part.replace(/\{(host|version|artifact|sha256)\}/g, (_m, name: keyof CommandValues) => values[name]),
  );
}

/** What the console may see of an environment: not its command. */
export function publicEnvironment(e: EnvironmentConfig): Environment {
  const { id, name, hosts, parallelism, timeoutSeconds, serves } = e;
  return { id, name, hosts, parallelism, timeoutSeconds, serves };
}
