/**
 * Finds the template a lookup asked for: its latest published version, if the caller may use it (mayUse).
 * Compiled versions are kept in memory; which version is latest is read again after a couple of seconds, so a
 * newly published version takes effect on every process within that time. The store owns the sandbox its templates
 * are applied in, and ends it with the app.
 */
import { hasRank } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import type { LookupCaller } from '../identities/caller';
import { type CompiledTemplate, compileTemplate, TemplateError } from './evaluate';
import { onBehalfOf, sandboxOwner } from './owner';
import { machineSandboxSize } from './pool-size';
import { createTemplateSandbox, type TemplateSandbox } from './sandbox';

/** Template 1, Full: the whole record. Used when a lookup names none. */
export const DEFAULT_TEMPLATE_ID = 1;
const LATEST_TTL_MS = 2000;
const MAX_CACHED = 1000;

export interface TemplateVersion {
  id: number;
  name: string;
  version: number;
  organizationId: number | null;
  adminIds: number[];
  expression: string;
}

export interface ResolvedTemplate extends TemplateVersion {
  compiled: CompiledTemplate;
}

export const TEMPLATE_MESSAGES = {
  unknown: (id: number) => `Template ${id} does not exist, has no published version, or is not shared with you.`,
  deleted: (t: { id: number; name: string }) => `Template ${t.id} (${t.name}) has been deleted.`,
  failed: (t: { id: number; name: string; version: number }, reason: string) =>
    `Template ${t.id} (${t.name}, version ${t.version}) failed: ${reason}`,
} as const;

/**
 * System templates are everyone's; others their organization's; staff may use any. `adminIds` (spec §3) says who
 * may edit, not who may use, and mixes user and organization ids, so it never grants use here.
 */
export function mayUse(caller: LookupCaller, t: Pick<TemplateVersion, 'organizationId'>): boolean {
  if (t.organizationId === null || hasRank(caller.role, 'super')) return true;
  return caller.organizationId !== null && t.organizationId === caller.organizationId;
}

export async function latestPublished(database: Database, id: number): Promise<TemplateVersion | null> {
  const [row] = await database.query<TemplateVersion>(
    `select t.id, t.name, v.version, t.organization_id as "organizationId", t.admin_ids as "adminIds", v.expression
     from templates t join template_versions v on v.template_id = t.id
     where t.id = $1 and t.deleted_at is null and v.published_at is not null
     order by v.version desc limit 1`,
    [id],
  );
  return row ?? null;
}

/** A deleted template the caller could have used, so that a lookup naming it can say so (404). */
export async function deletedTemplate(
  database: Database,
  id: number,
  caller: LookupCaller,
): Promise<{ id: number; name: string } | null> {
  const [row] = await database.query<{ id: number; name: string; organizationId: number | null }>(
    `select id, name, organization_id as "organizationId" from templates where id = $1 and deleted_at is not null`,
    [id],
  );
  return row && mayUse(caller, row) ? { id: row.id, name: row.name } : null;
}

export interface TemplateStore {
  /** The template to apply, or a TemplateError (unknown or not shared: the caller's mistake) or a compile failure. */
  resolve(id: number, caller: LookupCaller): Promise<ResolvedTemplate | null>;
  /**
   * Forgets which version of a template is latest, so this process reads it again on its next use (after a publish
   * or a deletion here); other processes learn within the refresh time.
   */
  forget(id: number): void;
  /** An expression compiled to be applied in the store's sandbox (a preview), or a TemplateError. */
  compile(expression: string): CompiledTemplate;
}

/**
 * `app`, when given, closes the store (and so the sandbox) when it closes, and logs each template the sandbox had to
 * stop. The sandbox is the one given, or one sized for the machine's share of a cluster of `webConcurrency` workers. The sandbox starts its processes only when a template other than Full is first applied.
 */
export function createTemplateStore(
  database: Database,
  app?: Pick<FastifyInstance, 'addHook' | 'log'>,
  given: TemplateSandbox | { webConcurrency: number } = { webConcurrency: 1 },
): TemplateStore & { close(): Promise<void> } {
  const sandbox: TemplateSandbox =
    'webConcurrency' in given
      ? createTemplateSandbox({
          size: machineSandboxSize(given.webConcurrency),
          onFault: (reason) => app?.log.warn({ reason }, 'template sandbox: a process was ended'),
        })
      : given;
  app?.addHook('onClose', () => sandbox.close());
  const latest = new Map<number, { at: number; version: TemplateVersion | null }>();
  const compiled = new Map<string, CompiledTemplate | TemplateError>();

  function compileOnce(t: TemplateVersion): CompiledTemplate {
    const key = `${t.id}:${t.version}`;
    let entry = compiled.get(key);
    if (!entry) {
      try {
        entry = compileTemplate(t.expression, sandbox);
      } catch (error) {
        entry = error instanceof TemplateError ? error : new TemplateError(String(error));
      }
      if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, entry);
    }
    if (entry instanceof TemplateError)
      throw new TemplateError(TEMPLATE_MESSAGES.failed(t, entry.message), entry.position);
    return entry;
  }

  return {
    close: () => sandbox.close(),
    forget: (id) => {
      latest.delete(id);
    },
    compile: (expression) => compileTemplate(expression, sandbox),
    async resolve(id, caller) {
      const now = Date.now();
      let cached = latest.get(id);
      if (!cached || now - cached.at > LATEST_TTL_MS) {
        cached = { at: now, version: await latestPublished(database, id) };
        if (latest.size >= MAX_CACHED) latest.delete(latest.keys().next().value!);
        latest.set(id, cached);
      }
      const version = cached.version;
      if (!version || !mayUse(caller, version)) return null;
      // Applied in the caller's turn of the sandbox (decision 0049).
      return { ...version, compiled: onBehalfOf(compileOnce(version), sandboxOwner(caller)) };
    },
  };
}
