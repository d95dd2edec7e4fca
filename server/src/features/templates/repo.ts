/**
 * Templates and their versions in the database. Authoring pages come with the console; the API reads only
 * published versions (store.ts). A template's versions are numbered from 1 in the order they were saved.
 */
import type { Database } from '../../db/client';
import { templates, templateVersions } from '../../db/schema';
import { compileTemplate } from './evaluate';

export interface NewTemplate {
  name: string;
  description?: string;
  organizationId: number | null;
  createdBy: number | null;
  adminIds?: number[];
  expression: string;
  publish: boolean;
}

/** A new template with its first version. The expression must compile (a TemplateError otherwise). */
export async function createTemplate(database: Database, t: NewTemplate): Promise<{ id: number; version: number }> {
  compileTemplate(t.expression);
  return database.transaction(async (tx) => {
    const [row] = await tx
      .insert(templates)
      .values({
        name: t.name,
        description: t.description ?? '',
        organizationId: t.organizationId,
        createdBy: t.createdBy,
        adminIds: t.adminIds ?? [],
      })
      .returning({ id: templates.id });
    const id = row!.id;
    await tx.insert(templateVersions).values({
      templateId: id,
      version: 1,
      expression: t.expression,
      publishedAt: t.publish ? new Date() : null,
      createdBy: t.createdBy,
    });
    return { id, version: 1 };
  });
}

/** Saves the next version of a template, published or as a draft. */
export async function addVersion(
  database: Database,
  templateId: number,
  expression: string,
  options: { publish: boolean; createdBy: number | null },
): Promise<number> {
  compileTemplate(expression);
  const [row] = await database.query<{ version: number }>(
    `insert into template_versions (template_id, version, expression, published_at, created_by)
     select $1, coalesce(max(version), 0) + 1, $2, case when $3::boolean then now() end, $4
     from template_versions where template_id = $1
     returning version`,
    [templateId, expression, options.publish, options.createdBy],
  );
  return row!.version;
}

/** Publishes a saved draft. */
export async function publishVersion(database: Database, templateId: number, version: number): Promise<void> {
  await database.query(
    'update template_versions set published_at = now() where template_id = $1 and version = $2 and published_at is null',
    [templateId, version],
  );
}
