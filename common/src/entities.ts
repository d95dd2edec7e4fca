/** Spec §3 entities as zod schemas: the shapes the server replies with and the client stores. */
import type { KeyMode } from './keys';
import { isRole, type Role } from './roles';

/** Spec §3 user: what the console knows about who is signed in. */
export interface User {
  id: number;
  email: string;
  name: string;
  role: Role;
  organizationId: number | null;
  organizationName: string;
  isActive: boolean;
  title: string;
  image: string;
  allowedRecordTypes: string[];
  /** Session expiry, epoch milliseconds; 0 for anonymous. */
  expires: number;
  /** The real user's id while impersonating. */
  impersonator?: number;
}

export const ANONYMOUS_USER: User = Object.freeze({
  id: 0,
  email: '',
  name: '',
  role: 'anonymous',
  organizationId: null,
  organizationName: '',
  isActive: false,
  title: '',
  image: '',
  allowedRecordTypes: [],
  expires: 0,
}) as User;

/**
 * Reads a user the server wrote (the readable cookie, a push): the identifying fields must be right, the
 * rest fall back to the anonymous defaults. The server's replies are checked by `schemas/entities.ts`.
 */
export function readUser(value: unknown): User | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<User>;
  if (typeof v.id !== 'number' || !Number.isInteger(v.id) || !isRole(v.role) || typeof v.expires !== 'number')
    return null;
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    id: v.id,
    email: text(v.email),
    name: text(v.name),
    role: v.role,
    organizationId: typeof v.organizationId === 'number' ? v.organizationId : null,
    organizationName: text(v.organizationName),
    isActive: v.isActive === true,
    title: text(v.title),
    image: text(v.image),
    allowedRecordTypes: Array.isArray(v.allowedRecordTypes)
      ? v.allowedRecordTypes.filter((t) => typeof t === 'string')
      : [],
    expires: v.expires,
    ...(typeof v.impersonator === 'number' ? { impersonator: v.impersonator } : {}),
  };
}

/** Spec §3 organization, as the console shows it. */
export interface Organization {
  id: number;
  name: string;
  emailDomain: string | null;
  acceptUsers: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string | null;
}

/** An API key as the console sees it (issue 5): never its secret, except `secret` once in the reply that made it. */
export interface ApiKey {
  id: string;
  name: string;
  userId: number;
  organizationId: number | null;
  /** The secret's last four characters, to tell keys apart. */
  lastFour: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  ipAllowlist: string[];
  /** Requests per minute, or null for the organization's limit alone. */
  rateLimit: number | null;
  allowedRecordTypes: string[];
  /** Accepts the original API's md5-signed form (shown as legacy). */
  legacy: boolean;
  /** `test`: answers from the sandbox, free, presented with the `tk_test_` prefix (issue 31); `live` otherwise. */
  mode: KeyMode;
  /** After a rotation: until when the previous secret is still accepted. */
  previousValidUntil: string | null;
  /**
   * When the key's latest call was metered (to the millisecond; the start of its hour for calls rolled up before
   * issue 31), from the usage rollups and their tail; null if never used. Every key reply of the server carries it
   * (and callsThisMonth); optional here for items merged from older replies.
   */
  lastUsedAt?: string | null;
  /** Calls made with the key since the start of this month (UTC), from the daily usage rollups. */
  callsThisMonth?: number;
  /** Only in the reply to a creation or rotation. */
  secret?: string;
  deletedAt?: string | null;
}

/** Spec §3: the data areas the client holds; each keyed object merges into these. */
export const DATA_AREAS = [
  'self',
  'organization',
  'organizations',
  'pricing',
  'contract',
  'contracts',
  'user',
  'users',
  'key',
  'keys',
  'ip',
  'template',
  'templates',
  'authors',
  'state',
  'sessions',
  'who',
  'whos',
  'release',
  'releases',
  'clusters',
  'deployment',
  'deployments',
  'tasks',
  'segments',
  /** Webhook endpoints (issue 33, decision 0066). */
  'webhooks',
  'nda',
  'ndaId',
  'journeyId',
  'buildingId',
  'version',
] as const;
export type DataArea = (typeof DATA_AREAS)[number];

/** Areas holding collections keyed by id (tasks are keyed by `key`). */
export const COLLECTION_AREAS = [
  'organizations',
  'contracts',
  'users',
  'keys',
  'templates',
  'authors',
  'sessions',
  'whos',
  'releases',
  'clusters',
  'deployments',
  'tasks',
  'segments',
  'webhooks',
] as const satisfies readonly DataArea[];

export type KeyedObject = Partial<Record<DataArea, unknown>>;

/** The cookie the browser reads to learn who is signed in (spec §4). */
export const USER_COOKIE = 'tessera_user';
export const SESSION_COOKIE = 'tessera_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Header that every state-changing console call carries (CSRF defence). */
export const REQUESTED_WITH_HEADER = 'x-requested-with';
