/**
 * Releases, environments, deployments and their tasks (issue 21, decision 0038): statuses, limits and messages
 * shared by the server's checks and the console's forms.
 */
import { hasRank, type Role } from './roles';

export const RELEASE_STATUSES = ['draft', 'published'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

export const DEPLOYMENT_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const RELEASE_LIMITS = { version: 64, notes: 20_000, commit: 40 } as const;
/** The output a task keeps: its last 64 KB. */
export const TASK_OUTPUT_MAX_BYTES = 64 * 1024;
/** The only step a host's task has: run the environment's deploy command. */
export const DEPLOY_STEP = 'deploy';

/** Socket channel on which deployments, their tasks and releases are pushed; root only. */
export const DEPLOYMENTS_CHANNEL = 'system:deployments';
export const DEPLOYMENTS_ROLE: Role = 'root';
export const canWatchDeployments = (role: Role): boolean => hasRank(role, DEPLOYMENTS_ROLE);

export const taskKey = (deploymentId: number, host: string, step: string = DEPLOY_STEP): string =>
  `${deploymentId}:${host}:${step}`;

/** Semantic version, without a leading v (the server checks it with the semver package too). */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
export const COMMIT_PATTERN = /^[0-9a-f]{7,40}$/;

export const RELEASE_MESSAGES = {
  version: 'Please provide a semantic version such as 1.2.3.',
  versionTaken: 'A release with this version already exists.',
  commit: 'Please provide a commit id: 7 to 40 hexadecimal digits.',
  commitMissing: 'This commit is not in the repository.',
  notes: `Please keep the notes under ${RELEASE_LIMITS.notes.toLocaleString('en-US')} characters.`,
  published: 'A published release cannot be changed or deleted.',
  notFound: 'This release does not exist.',
  deployed: 'This release has deployments and cannot be deleted.',
  build: 'The release artifact could not be built.',
} as const;

export const DEPLOYMENT_MESSAGES = {
  notFound: 'This deployment does not exist.',
  release: 'Please choose a published release.',
  environment: 'Please choose an environment.',
  hosts: "Please choose one or more of the environment's hosts.",
  locked: 'Another deployment to this environment is in progress.',
  notRunning: 'This deployment has already finished.',
  notFinished: 'Only a finished deployment can be deleted.',
  nothingToRetry: 'This deployment has no failed or cancelled hosts to retry.',
  retryRunning: 'This deployment is still running.',
  restart: 'Failed: the server restarted while this task was running.',
  skipped: 'Not started: an earlier batch failed.',
  cancelled: 'Cancelled.',
} as const;

export interface Release {
  id: number;
  version: string;
  notes: string;
  /** The notes rendered from Markdown and sanitised on the server. */
  notesHtml: string;
  commit: string;
  artifact: string;
  artifactSize: number;
  artifactSha256: string;
  status: ReleaseStatus;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

export interface Environment {
  id: string;
  name: string;
  hosts: string[];
  parallelism: number;
  timeoutSeconds: number;
  /** Whether this environment runs the console: a deployment to it changes the version told to browsers. */
  serves: boolean;
}

export interface Deployment {
  id: number;
  releaseId: number;
  version: string;
  /** Spec §3: what is being deployed where. */
  deploying: { environment: string; hosts: string[] };
  status: DeploymentStatus;
  createdAt: string;
  finishedAt: string | null;
}

export interface Task {
  key: string;
  deploymentId: number;
  host: string;
  step: string;
  position: number;
  status: TaskStatus;
  progress: number;
  startedAt: string | null;
  finishedAt: string | null;
  exitCode: number | null;
  output: string;
}

export const isFinished = (status: DeploymentStatus): boolean => status !== 'running';
