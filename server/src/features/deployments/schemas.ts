/** Bodies, params and queries of /v2/deployments and /v2/tasks. */
import {
  DEPLOYMENT_MESSAGES,
  DEPLOYMENT_STATUSES,
  type Deployment,
  type Environment,
  TASK_STATUSES,
  type Task,
} from '@tessera/common/deployments';
import { parseIdList } from '@tessera/common/routes';
import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2_147_483_647);

export const deploymentBody = z
  .object({
    releaseId: z.number({ error: DEPLOYMENT_MESSAGES.release }).int().positive().max(2_147_483_647),
    environment: z.string({ error: DEPLOYMENT_MESSAGES.environment }).min(1, DEPLOYMENT_MESSAGES.environment).max(40),
    /** The environment's hosts to deploy to; all of them when left out. */
    hosts: z
      .array(z.string().max(300), { error: DEPLOYMENT_MESSAGES.hosts })
      .min(1, DEPLOYMENT_MESSAGES.hosts)
      .max(200)
      .refine((hosts) => new Set(hosts).size === hosts.length, DEPLOYMENT_MESSAGES.hosts)
      .optional(),
  })
  .strict();

export const deploymentParams = z.object({ id });

/** `{id}`: one id or a comma-separated list (spec §2). */
export const deploymentListParams = z.object({
  id: z.string().transform((value, ctx) => {
    const ids = parseIdList(value);
    if (!ids || ids.length > 100 || ids.some((n) => n < 1 || n > 2_147_483_647)) {
      ctx.addIssue({ code: 'custom', message: 'Please provide one or more numeric ids, separated by commas.' });
      return z.NEVER;
    }
    return [...new Set(ids)];
  }),
});

export const tasksQuery = z.object({ deploymentId: id });

const deployment = z.object({
  id: z.number(),
  releaseId: z.number(),
  version: z.string(),
  deploying: z.object({ environment: z.string(), hosts: z.array(z.string()) }),
  status: z.enum(DEPLOYMENT_STATUSES),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
}) satisfies z.ZodType<Deployment>;

const task = z.object({
  key: z.string(),
  deploymentId: z.number(),
  host: z.string(),
  step: z.string(),
  position: z.number(),
  status: z.enum(TASK_STATUSES),
  progress: z.number(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  output: z.string(),
}) satisfies z.ZodType<Task>;

/** What the console sees of an environment: never its command. */
const environment = z.object({
  id: z.string(),
  name: z.string(),
  hosts: z.array(z.string()),
  parallelism: z.number(),
  timeoutSeconds: z.number(),
  serves: z.boolean(),
}) satisfies z.ZodType<Environment>;

const deployments = z.record(z.string(), deployment);
const tasks = z.record(z.string(), task);
export const environmentsReply = z.object({ environments: z.record(z.string(), environment) });
export const deploymentsReply = z.object({ deployments });
export const deploymentReply = z.object({ deployments, tasks });
export const tasksReply = z.object({ tasks });
export const deploymentsDeletedReply = z.object({
  deployments: z.record(z.string(), z.object({ id: z.number(), deletedAt: z.string() })),
});
