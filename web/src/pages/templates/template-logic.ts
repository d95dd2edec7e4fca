/** What the template pages compute from a template, without React: labels, changes to save, places and diffs. */
import type { Organization, UserEntry } from '@tessera/common/resources';
import type { Template } from '@tessera/common/templates';
import { diffLines } from 'diff';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';

/** The text the editor starts from: the open draft, else the published version. */
export const workingExpression = (t: Pick<Template, 'draft' | 'expression'>): string =>
  t.draft?.expression ?? t.expression;

type Named<T> = Record<string, T> | undefined;

/** 'System' for a system template, else its organization's name (or number when not known here). */
export function ownerLabel(t: Pick<Template, 'organizationId'>, organizations: Named<Organization>): string {
  if (t.organizationId === null) return 'System';
  return organizations?.[String(t.organizationId)]?.name ?? `Organization ${t.organizationId}`;
}

/** One adminIds entry by name: a user, an organization, or its number when neither is known here. */
export function principalLabel(id: number, users: Named<UserEntry>, organizations: Named<Organization>): string {
  const user = users?.[String(id)];
  if (user) return user.name || user.email;
  const org = organizations?.[String(id)];
  if (org) return `${org.name} (organization)`;
  return `#${id}`;
}

/** Who may edit (spec §6): System Administrators always, and the users and organizations of adminIds. */
export function editorsLabel(
  t: Pick<Template, 'organizationId' | 'adminIds'>,
  users: Named<UserEntry>,
  organizations: Named<Organization>,
): string {
  const names = t.organizationId === null ? [] : t.adminIds.map((id) => principalLabel(id, users, organizations));
  return ['System Administrators', ...names].join(', ');
}

export const publishedLabel = (t: Pick<Template, 'publishedVersion'>) =>
  t.publishedVersion === null ? 'Not published' : `Version ${t.publishedVersion}`;

export const draftLabel = (t: Pick<Template, 'draft'>) => (t.draft ? `Version ${t.draft.version}` : 'None');

export interface EditedSettings {
  name: string;
  description: string;
  adminIds: number[];
  expression: string;
}

/** The saved state of a template, in the editor's terms. */
export const savedSettings = (t: Template): EditedSettings => ({
  name: t.name,
  description: t.description,
  adminIds: t.adminIds,
  expression: workingExpression(t),
});

/** Only the fields that differ from the saved ones: a name change alone must not open a draft. */
export function changedSettings(saved: EditedSettings, now: EditedSettings): Partial<EditedSettings> {
  const changes: Partial<EditedSettings> = {};
  if (now.name.trim() !== saved.name) changes.name = now.name.trim();
  if (now.description.trim() !== saved.description) changes.description = now.description.trim();
  if (now.adminIds.join(',') !== saved.adminIds.join(',')) changes.adminIds = now.adminIds;
  if (now.expression !== saved.expression) changes.expression = now.expression;
  return changes;
}

/** adminIds held by the form as a comma-separated string. */
export const idsOf = (value: string): number[] =>
  value
    .split(',')
    .filter((v) => /^\d+$/.test(v))
    .map(Number);

/** The 0-based offset of a 1-based line and column in a text, kept inside it. */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  const row = Math.min(Math.max(line, 1), lines.length);
  let offset = 0;
  for (let i = 0; i < row - 1; i++) offset += (lines[i]?.length ?? 0) + 1;
  return offset + Math.min(Math.max(column - 1, 0), lines[row - 1]?.length ?? 0);
}

export interface DiffRow {
  kind: 'added' | 'removed' | 'same';
  text: string;
  /** Line numbers in the old and new text, or null where the line is not in it. */
  oldLine: number | null;
  newLine: number | null;
}

/** A line-by-line diff of the published expression and the draft. */
export function diffRows(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) {
      if (part.added) rows.push({ kind: 'added', text, oldLine: null, newLine: newLine++ });
      else if (part.removed) rows.push({ kind: 'removed', text, oldLine: oldLine++, newLine: null });
      else rows.push({ kind: 'same', text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return rows;
}

/** The live templates in the store, by name. */
export function useTemplates(): Template[] {
  const items = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  return useMemo(() => Object.values(items ?? {}).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id), [items]);
}

export function useTemplate(id: number | undefined): Template | undefined {
  return useStore((s) =>
    id === undefined ? undefined : (s.areas.templates as Record<string, Template> | undefined)?.[String(id)],
  );
}

export function useNames(): { users: Named<UserEntry>; organizations: Named<Organization> } {
  const users = useStore((s) => s.areas.users) as Named<UserEntry>;
  const organizations = useStore((s) => s.areas.organizations) as Named<Organization>;
  return { users, organizations };
}
