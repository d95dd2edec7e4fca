/**
 * SSH access (issue 20 item 3, decision 0037): staff's public keys, host groups with a token each (kept as its
 * SHA-256, like API key secrets), grants of a key to a group as a login until an expiry, the product's SSH CA key
 * (sealed) and the certificates it signed (their serial numbers).
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** ed25519, ecdsa or rsa. */
    type: text('type').notNull(),
    bits: integer('bits').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** `{type} {base64}`, without the comment it was pasted with. */
    publicKey: text('public_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ssh_keys_fingerprint_key').on(t.fingerprint).where(sql`${t.deletedAt} is null`),
    index('ssh_keys_user_idx').on(t.userId),
  ],
);

export const sshHostGroups = pgTable(
  'ssh_host_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    tokenSha256: text('token_sha256').notNull(),
    tokenLastFour: text('token_last_four').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('ssh_host_groups_name_key').on(t.name).where(sql`${t.deletedAt} is null`)],
);

export const sshGrants = pgTable(
  'ssh_grants',
  {
    id: serial('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => sshKeys.id),
    groupId: integer('group_id')
      .notNull()
      .references(() => sshHostGroups.id),
    /** The login user on the hosts. */
    principal: text('principal').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [index('ssh_grants_group_idx').on(t.groupId, t.principal), index('ssh_grants_key_idx').on(t.keyId)],
);

/** The product's SSH certificate authority: one row, its private key sealed under the key-encryption key. */
export const sshCa = pgTable('ssh_ca', {
  name: text('name').primaryKey(),
  privateSealed: text('private_sealed').notNull(),
  publicKey: text('public_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every certificate the CA signed; the id is its serial number. */
export const sshCertificates = pgTable(
  'ssh_certificates',
  {
    id: serial('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => sshKeys.id),
    grantId: integer('grant_id')
      .notNull()
      .references(() => sshGrants.id),
    principal: text('principal').notNull(),
    validAfter: timestamp('valid_after', { withTimezone: true }).notNull(),
    validBefore: timestamp('valid_before', { withTimezone: true }).notNull(),
    issuedBy: integer('issued_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ssh_certificates_grant_idx').on(t.grantId)],
);
