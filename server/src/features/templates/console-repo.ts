/**
 * SQL of /v2/templates. A template's published versions are immutable; its draft is the one unpublished version
 * numbered past the latest published one, replaced in place by each save and stamped published by a publish.
 * Unpublished versions below the latest published one (left by older code paths) are neither drafts nor listed.
 */
import type { Template, TemplateDraft, TemplateVersionEntry } from '@tessera/common/templates';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rows } from '../../db/rows';

export interface TemplateRow {
  id: number;
  name: string;
  description: string;
  organizationId: number | null;
  adminIds: number[];
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  publishedVersion: number | null;
  publishedExpression: string | null;
  draft: { version: number; expression: string; updatedAt: Date; createdBy: number | null } | null;
}

interface RawRow extends Omit<TemplateRow, 'draft' | 'createdAt' | 'updatedAt' | 'deletedAt'> {
  createdAt: Date | string;
  updatedAt: Date | string;
  deletedAt: Date | string | null;
  draftVersion: number | null;
  draftExpression: string | null;
  draftAt: Date | string | null;
  draftBy: number | null;
}

const date = (d: Date | string) => new Date(d);

/**
 * A template's updatedAt is its version (If-Match, common/etag.ts): every change moves it by at least a millisecond,
 * even two within one (it is read to the millisecond).
 */
const BUMP = sql.raw(`updated_at = greatest(now(), updated_at + interval '1 millisecond')`);

const SELECT = sql`select t.id, t.name, t.description, t.organization_id as "organizationId",
    t.admin_ids as "adminIds", t.created_by as "createdBy", t.created_at as "createdAt",
    t.updated_at as "updatedAt", t.deleted_at as "deletedAt",
    p.version as "publishedVersion", p.expression as "publishedExpression",
    d.version as "draftVersion", d.expression as "draftExpression", d.created_at as "draftAt", d.created_by as "draftBy"
  from templates t
  left join lateral (select version, expression from template_versions
    where template_id = t.id and published_at is not null order by version desc limit 1) p on true
  left join lateral (select version, expression, created_at, created_by from template_versions
    where template_id = t.id and published_at is null and version > coalesce(p.version, 0)
    order by version desc limit 1) d on true`;

function toRow(r: RawRow): TemplateRow {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    organizationId: r.organizationId,
    adminIds: r.adminIds ?? [],
    createdBy: r.createdBy,
    createdAt: date(r.createdAt),
    updatedAt: date(r.updatedAt),
    deletedAt: r.deletedAt === null ? null : date(r.deletedAt),
    publishedVersion: r.publishedVersion,
    publishedExpression: r.publishedExpression,
    draft:
      r.draftVersion === null
        ? null
        : {
            version: r.draftVersion,
            expression: r.draftExpression ?? '',
            updatedAt: date(r.draftAt ?? r.updatedAt),
            createdBy: r.draftBy,
          },
  };
}

export function toTemplate(row: TemplateRow, versions?: TemplateVersionEntry[]): Template {
  const draft: TemplateDraft | null = row.draft && {
    version: row.draft.version,
    expression: row.draft.expression,
    updatedAt: row.draft.updatedAt.toISOString(),
    createdBy: row.draft.createdBy,
  };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationId: row.organizationId,
    adminIds: row.adminIds,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    publishedVersion: row.publishedVersion,
    expression: row.publishedExpression ?? '',
    draft,
    ...(versions ? { versions } : {}),
  };
}

/**
 * Live templates the caller sees (`viewer` null: all of them): system ones, their organization's, and those whose
 * adminIds hold their id or their organization's id.
 */
export async function listTemplates(
  db: Executor,
  viewer: { userId: number; organizationId: number | null } | null,
): Promise<TemplateRow[]> {
  const ids = viewer ? [viewer.userId, ...(viewer.organizationId === null ? [] : [viewer.organizationId])] : [];
  const scope = viewer
    ? sql` and (t.organization_id is null or t.organization_id = ${viewer.organizationId ?? -1}
        or t.admin_ids && ${`{${ids.join(',')}}`}::integer[])`
    : sql``;
  const raw = await rows<RawRow>(db, sql`${SELECT} where t.deleted_at is null${scope} order by t.id`);
  return raw.map(toRow);
}

/** A live template, its row locked until the transaction ends when `forUpdate`. */
export async function findTemplate(db: Executor, id: number, forUpdate = false): Promise<TemplateRow | null> {
  if (forUpdate) await db.execute(sql`select 1 from templates where id = ${id} for update`);
  const [raw] = await rows<RawRow>(db, sql`${SELECT} where t.deleted_at is null and t.id = ${id}`);
  return raw ? toRow(raw) : null;
}

/** Every published version, newest first. */
export async function listVersions(db: Executor, id: number): Promise<TemplateVersionEntry[]> {
  const raw = await rows<{ version: number; expression: string; publishedAt: Date | string; createdBy: number | null }>(
    db,
    sql`select version, expression, published_at as "publishedAt", created_by as "createdBy"
      from template_versions where template_id = ${id} and published_at is not null order by version desc`,
  );
  return raw.map((v) => ({ ...v, publishedAt: date(v.publishedAt).toISOString() }));
}

export async function insertTemplate(
  db: Executor,
  t: {
    name: string;
    description: string;
    organizationId: number | null;
    adminIds: number[];
    createdBy: number;
    expression: string;
  },
): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into templates (name, description, organization_id, created_by, admin_ids)
      values (${t.name}, ${t.description}, ${t.organizationId}, ${t.createdBy}, ${`{${t.adminIds.join(',')}}`}::integer[])
      returning id`,
  );
  const id = row!.id;
  await saveDraft(db, id, t.expression, t.createdBy);
  return id;
}

export async function updateTemplate(
  db: Executor,
  id: number,
  values: { name?: string; description?: string; adminIds?: number[] },
): Promise<void> {
  await db.execute(sql`update templates set
      name = coalesce(${values.name ?? null}, name),
      description = coalesce(${values.description ?? null}, description),
      admin_ids = coalesce(${values.adminIds ? `{${values.adminIds.join(',')}}` : null}::integer[], admin_ids),
      ${BUMP}
    where id = ${id}`);
}

/** Saves the open draft (replacing it) or opens one numbered after every version so far. */
export async function saveDraft(db: Executor, id: number, expression: string, by: number): Promise<void> {
  const [latest] = await rows<{ version: number | null; published: boolean | null }>(
    db,
    sql`select version, published_at is not null as published from template_versions
      where template_id = ${id} order by version desc limit 1`,
  );
  if (latest && latest.published === false) {
    await db.execute(sql`update template_versions set expression = ${expression}, created_at = now(), created_by = ${by}
      where template_id = ${id} and version = ${latest.version}`);
  } else {
    await db.execute(sql`insert into template_versions (template_id, version, expression, created_by)
      values (${id}, ${(latest?.version ?? 0) + 1}, ${expression}, ${by})`);
  }
  await db.execute(sql`update templates set ${BUMP} where id = ${id}`);
}

/** Makes the open draft the next published version; its number, or null when there is no draft. */
export async function publishDraft(db: Executor, row: TemplateRow): Promise<number | null> {
  if (!row.draft) return null;
  await db.execute(sql`update template_versions set published_at = now()
    where template_id = ${row.id} and version = ${row.draft.version} and published_at is null`);
  await db.execute(sql`update templates set ${BUMP} where id = ${row.id}`);
  return row.draft.version;
}

export async function versionExpression(db: Executor, id: number, version: number): Promise<string | null> {
  const [row] = await rows<{ expression: string }>(
    db,
    sql`select expression from template_versions
      where template_id = ${id} and version = ${version} and published_at is not null`,
  );
  return row?.expression ?? null;
}

export async function softDelete(db: Executor, id: number): Promise<Date> {
  const [row] = await rows<{ deletedAt: Date | string }>(
    db,
    sql`update templates set deleted_at = now(), ${BUMP} where id = ${id} returning deleted_at as "deletedAt"`,
  );
  return date(row!.deletedAt);
}

/**
 * What each of `ids` names: users and organizations, live or not, and whether it is within `organizationId` (null:
 * anywhere). Ids issued before user and organization ids shared one sequence (migration 0013) may name one of each.
 */
export async function principals(
  db: Executor,
  ids: readonly number[],
  organizationId: number | null,
): Promise<Map<number, { kinds: number; visible: boolean }>> {
  const out = new Map<number, { kinds: number; visible: boolean }>();
  if (ids.length === 0) return out;
  const list = `{${ids.join(',')}}`;
  const found = await rows<{ id: number; visible: boolean }>(
    db,
    sql`select id, deleted_at is null and (${organizationId}::integer is null or organization_id = ${organizationId}::integer) as visible
        from users where id = any(${list}::integer[])
      union all
      select id, deleted_at is null and (${organizationId}::integer is null or id = ${organizationId}::integer) as visible
        from organizations where id = any(${list}::integer[])`,
  );
  for (const r of found) {
    const id = Number(r.id);
    const seen = out.get(id);
    out.set(id, { kinds: (seen?.kinds ?? 0) + 1, visible: (seen?.visible ?? false) || r.visible });
  }
  return out;
}

export async function organizationExists(db: Executor, id: number): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from organizations where id = ${id} and deleted_at is null`,
  );
  return found.length > 0;
}
