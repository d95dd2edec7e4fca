/**
 * The /v2/templates calls of the template pages (decision 0023). Explicit actions (create, publish, restore, delete)
 * go through the API client, which alerts their failures. The calls made while typing (the preview, and a draft's
 * automatic save) go round it: a compile error or a runtime error there is the page's to show in place (a lint
 * marker, the output pane), never an alert per keystroke. Both still merge their replies and follow spec §8 for
 * 401, 403, 404 and 451.
 */
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import type { Template, TemplateFormat, TemplatePreview } from '@tessera/common/templates';
import { api, request } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { logout } from '../../lib/session';
import { useStore } from '../../lib/store';

export const TEMPLATES_PATH = '/v2/templates';

/** A compile error's message and place (1-based), as the API's 400 names them. */
export interface CompileError {
  message: string;
  line: number;
  column: number;
}

export interface TemplateSettings {
  name?: string;
  description?: string;
  adminIds?: number[];
  expression?: string;
}

/** What a quiet call came back with: the reply, or the failure to show in place. */
export type QuietResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; message: string; compile: CompileError | null };

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/** The expression's compile error in a 400's fields, if that is what failed. */
export function compileErrorOf(body: unknown): CompileError | null {
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return null;
  for (const field of fields as Record<string, unknown>[]) {
    if (field.path !== 'body.expression' || typeof field.message !== 'string') continue;
    if (typeof field.line !== 'number' || typeof field.column !== 'number') continue;
    return { message: field.message, line: field.line, column: field.column };
  }
  return null;
}

function messageOf(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 300);
  return `The server answered ${status}.`;
}

/** A call whose 400, 412 and 422 the page shows itself. */
async function quietCall<T>(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<QuietResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        [REQUESTED_WITH_HEADER]: 'XMLHttpRequest',
        ...headers,
      },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, status: 0, message: 'The server could not be reached.', compile: null };
  }
  const parsed = await readJson(res);
  if (!res.ok) {
    const store = useStore.getState();
    if (res.status === 401 && store.self.id !== 0) void logout();
    else if (res.status === 451) navigate('/terms');
    else if (res.status === 403) navigate('/error/403');
    else if (res.status === 404 && method === 'PUT') navigate('/error/404');
    return { ok: false, status: res.status, message: messageOf(res.status, parsed), compile: compileErrorOf(parsed) };
  }
  return { ok: true, value: parsed as T };
}

/** Renders an unsaved expression for the synthetic sample or a real identity (metered). */
export async function previewTemplate(
  expression: string,
  format: TemplateFormat,
  identityId?: string,
): Promise<QuietResult<TemplatePreview>> {
  const sample = identityId ? { identityId: /^\d+$/.test(identityId) ? Number(identityId) : identityId } : undefined;
  const result = await quietCall<{ preview: TemplatePreview }>('POST', `${TEMPLATES_PATH}/preview`, {
    expression,
    format,
    ...(sample ? { sample } : {}),
  });
  return result.ok ? { ok: true, value: result.value.preview } : result;
}

/** If-Match with the version an edit loaded (its ETag): the server answers 412 rather than overwrite a change. */
const ifMatch = (version: string | undefined): Record<string, string> => (version ? { 'if-match': version } : {});

/**
 * Saves changed settings and the draft without alerting; the reply is merged into the store. With `version`, a
 * template changed since it was loaded is left as it is (412, shown by the page).
 */
export async function saveQuietly(
  id: number,
  settings: TemplateSettings,
  version?: string,
): Promise<QuietResult<Template>> {
  const result = await quietCall<{ templates: Record<string, Template> }>(
    'PUT',
    `${TEMPLATES_PATH}/${id}`,
    settings,
    ifMatch(version),
  );
  if (!result.ok) return result;
  useStore.getState().merge(result.value);
  const saved = result.value.templates[String(id)];
  if (!saved) return { ok: false, status: 200, message: 'The reply carries no template.', compile: null };
  return { ok: true, value: saved };
}

function only(reply: Record<string, unknown>): Template {
  const [template] = Object.values((reply as { templates?: Record<string, Template> }).templates ?? {});
  if (!template) throw new Error('The reply carries no template.');
  return template;
}

export const createTemplate = async (settings: Required<TemplateSettings>) =>
  only(await api.post(TEMPLATES_PATH, settings));

/** An explicit save; with `version`, its 412 is the page's to show (claimed), not an alert. */
export const updateTemplate = async (id: number, settings: TemplateSettings, version?: string) =>
  only(
    await request('PUT', `${TEMPLATES_PATH}/${id}`, {
      body: settings,
      ...(version ? { headers: ifMatch(version), claim: (status: number) => status === 412 } : {}),
    }),
  );

export const publishTemplate = async (id: number) => only(await api.post(`${TEMPLATES_PATH}/${id}/publish`));

export const restoreVersion = async (id: number, version: number) =>
  only(await api.post(`${TEMPLATES_PATH}/${id}/restore`, { version }));

export const deleteTemplates = (ids: number[]) => Promise.all(ids.map((id) => api.del(`${TEMPLATES_PATH}/${id}`)));
