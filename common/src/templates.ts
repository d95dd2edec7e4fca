import { canEditTemplate, hasRank, type Role } from './roles';

/**
 * Templates as the console sees them (issue 15, decision 0023): a JSONata expression kept as numbered, immutable
 * published versions plus at most one open draft. Replies are keyed objects `{ templates: { [id]: Template } }`.
 */

/** One published version; never changed once published. */
export interface TemplateVersionEntry {
  version: number;
  expression: string;
  publishedAt: string;
  createdBy: number | null;
}

/** The open draft: saved on every edit, replaced by the next save, made the next version by publishing. */
export interface TemplateDraft {
  expression: string;
  /** The version number it will be published as. */
  version: number;
  updatedAt: string;
  createdBy: number | null;
}

export interface Template {
  id: number;
  name: string;
  description: string;
  /** Null for a system template, shared with everyone and edited only by super or higher. */
  organizationId: number | null;
  /** Spec §3: user or organization ids allowed to edit it (spec §6). */
  adminIds: number[];
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
  /** The version lookups use, or null before the first publish. */
  publishedVersion: number | null;
  /** The expression of publishedVersion, or '' before the first publish. */
  expression: string;
  draft: TemplateDraft | null;
  /** Every published version, newest first: only in the reply to GET /v2/templates/{id} and to changes. */
  versions?: TemplateVersionEntry[];
  deletedAt?: string | null;
}

export const TEMPLATE_FORMATS = ['json', 'csv'] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

/** The reply to POST /v2/templates/preview: `{ preview: TemplatePreview }`. */
export interface TemplatePreview {
  format: TemplateFormat;
  /** The identity as a lookup would return it (score, matchedOn, then the template's fields). */
  identities: Record<string, unknown>[];
  /** The CSV text (header and rows) when format is csv, else null. */
  csv: string | null;
  /** True when a real identity was looked up, and so metered and priced as a lookup. */
  metered: boolean;
}

/** A compile error's place in the expression, 1-based. */
export interface ExpressionPosition {
  line: number;
  column: number;
}

/** Line and column (1-based) of a 0-based character offset into the expression. */
export function positionIn(expression: string, offset: number): ExpressionPosition {
  const at = Math.max(0, Math.min(expression.length, offset));
  const before = expression.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}

interface Viewer {
  id: number;
  role: Role;
  organizationId: number | null;
}

/**
 * Who sees a template (the list, GET, pushes): super or higher every one; others the system ones, their
 * organization's, and those whose adminIds hold their id or their organization's id.
 */
export function maySeeTemplate(viewer: Viewer, t: Pick<Template, 'organizationId' | 'adminIds'>): boolean {
  if (hasRank(viewer.role, 'super') || t.organizationId === null) return true;
  if (viewer.organizationId !== null && t.organizationId === viewer.organizationId) return true;
  return (
    t.adminIds.includes(viewer.id) || (viewer.organizationId !== null && t.adminIds.includes(viewer.organizationId))
  );
}

/** Spec §6: super or higher edit every template, and only they a system one; others by canEditTemplate (adminIds). */
export function mayEditTemplate(viewer: Viewer, t: Pick<Template, 'organizationId' | 'adminIds'>): boolean {
  if (t.organizationId === null) return hasRank(viewer.role, 'super');
  return canEditTemplate(viewer, t);
}
