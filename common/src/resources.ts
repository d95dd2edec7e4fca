/** Console resources of decision 0007: the items that `/v2/users` and `/v2/sessions` reply with, keyed by id. */
import type { Role } from './roles';

export type { Organization } from './entities';

/** A user as the console lists and edits them (never the password hash). */
export interface UserEntry {
  id: number;
  email: string;
  name: string;
  title: string;
  image: string;
  role: Role;
  organizationId: number | null;
  organizationName: string;
  isActive: boolean;
  allowedRecordTypes: string[];
  /** When the e-mail was verified; null until then. */
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string | null;
}

/** A live console session (spec §2 Sessions page: user, organization, IP, agent, last seen). */
export interface SessionEntry {
  id: number;
  userId: number;
  userEmail: string;
  userName: string;
  /** The owner's stored role: super and root may end sessions of users below them. */
  userRole: Role;
  organizationId: number | null;
  organizationName: string;
  impersonatorId: number | null;
  ip: string;
  userAgent: string;
  remember: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The session of the browser asking. */
  current: boolean;
  deletedAt?: string | null;
}

/** Paths of the console resources. */
export const RESOURCE_PATHS = {
  organizations: '/v2/organizations',
  users: '/v2/users',
  sessions: '/v2/sessions',
  userImage: (id: number | ':id') => `/v2/users/${id}/image`,
  image: (name: string) => `/v2/images/${name}`,
} as const;

/** Avatar uploads: the types accepted and the largest size, in bytes. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 1_000_000;
