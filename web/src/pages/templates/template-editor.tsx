/**
 * /templates/add (optionally from another template: /templates/add/{id}) and /templates/edit/{id}: name,
 * description and who may edit above a split pane, the JSONata editor on the left and its rendered output on the
 * right. Drafts save themselves shortly after typing stops when the local setting templates.autoSave is on, with
 * the state in view ("Saving…", "Saved", or why not); off, an explicit Save button does it.
 */

import type { EditorView } from '@codemirror/view';
import PublishIcon from '@mui/icons-material/Publish';
import SaveIcon from '@mui/icons-material/Save';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { versionTag } from '@tessera/common/etag';
import { mayEditTemplate, type Template, type TemplateFormat } from '@tessera/common/templates';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PanePresets, SplitPane } from '../../app/split-pane';
import { FormContainer, StaleAlert, TextInput, useForm } from '../../forms';
import { ApiError, api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { AdminIdsInput } from './admin-ids-input';
import { CodeBox } from './code-box';
import { FieldBrowserButton, insertAtCursor, useFieldBrowser, WithFieldBrowser } from './field-browser';
import {
  type CompileError,
  compileErrorOf,
  createTemplate,
  saveQuietly,
  TEMPLATES_PATH,
  updateTemplate,
} from './template-api';
import {
  changedSettings,
  type EditedSettings,
  idsOf,
  savedSettings,
  useTemplate,
  workingExpression,
} from './template-logic';
import { PreviewPane, type Sample, usePreview } from './template-preview';
import { useTemplateSettings } from './template-settings';

/** The server's limit on a description (server/src/features/templates/schemas.ts). */
export const DESCRIPTION_MAX = 1000;
/** The editor and preview's height side by side (the field reference beside them matches it). */
const PANES_HEIGHT = 'max(460px, calc(100vh - 360px))';
/** How long typing must pause before a draft saves itself. */
export const AUTOSAVE_DELAY_MS = 1000;

export const STARTER_EXPRESSION = `{
  "name": firstName & " " & lastName,
  "emails": emails.address
}`;

type Values = { name: string; description: string; adminIds: string };

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string };

/** The words the save state shows. */
export function saveStateText(state: SaveState, autoSave: boolean): string {
  switch (state.kind) {
    case 'saved':
      return 'Saved';
    case 'saving':
      return 'Saving…';
    case 'unsaved':
      return autoSave ? 'Unsaved changes' : 'Unsaved changes: press Save';
    default:
      return `Not saved: ${state.message}`;
  }
}

function SaveStatus({ state, autoSave }: { state: SaveState; autoSave: boolean }) {
  return (
    <Typography
      role="status"
      aria-live="polite"
      data-testid="save-state"
      data-state={state.kind}
      sx={{
        fontWeight: 500,
        color: (t) => {
          const dark = t.palette.mode === 'dark';
          if (state.kind === 'failed') return dark ? t.palette.error.light : t.palette.error.dark;
          if (state.kind === 'saved') return dark ? t.palette.success.light : t.palette.success.dark;
          return t.palette.text.secondary;
        },
      }}
    >
      {saveStateText(state, autoSave)}
    </Typography>
  );
}

const valuesOf = (t: Template, copy: boolean): Values => ({
  name: copy ? `${t.name} (copy)` : t.name,
  description: t.description,
  adminIds: copy ? '' : t.adminIds.join(','),
});

export function TemplateEditor({ id, from }: { id?: number; from?: number }) {
  const self = useStore((s) => s.self);
  const source = id ?? from;
  const template = useTemplate(source);
  const loaded = useFetch(source === undefined ? null : `${TEMPLATES_PATH}/${source}`);
  const form = useForm<Values>({ name: '', description: '', adminIds: '' });
  const [expression, setExpression] = useState(source === undefined ? STARTER_EXPRESSION : '');
  const [baseline, setBaseline] = useState<EditedSettings | null>(null);
  const [saveCompile, setSaveCompile] = useState<CompileError | null>(null);
  const [save, setSave] = useState<SaveState>({ kind: 'saved' });
  const failedKey = useRef<string | null>(null);
  /** The version of the template the edits start from (If-Match): a save never overwrites a change made since. */
  const version = useRef<string | undefined>(undefined);
  const [stale, setStale] = useState<string | null>(null);
  const started = useRef(false);
  const { autoSave, setAutoSave, paneSize, setPaneSize } = useTemplateSettings();
  const [format, setFormat] = useState<TemplateFormat>('json');
  const [sample, setSample] = useState<Sample>({ kind: 'synthetic', identityId: '' });
  const preview = usePreview(expression, format, sample);
  const editable = id === undefined || !template || mayEditTemplate(self, template);
  const fields = useFieldBrowser();
  const editor = useRef<EditorView | null>(null);
  const hintId = useId();

  useEffect(() => {
    if (!template || started.current) return;
    started.current = true;
    form.reset(valuesOf(template, id === undefined));
    setExpression(workingExpression(template));
    if (id !== undefined) {
      setBaseline(savedSettings(template));
      version.current = versionTag(template);
    }
  }, [template, id, form.reset]);

  // Spec §6: someone who may not edit it is sent to the 403 page.
  useEffect(() => {
    if (!editable) navigate('/error/403', { replace: true });
  }, [editable]);

  const current: EditedSettings = {
    name: form.values.name,
    description: form.values.description,
    adminIds: idsOf(form.values.adminIds),
    expression,
  };
  const changes = baseline ? changedSettings(baseline, current) : {};
  const changeKey = JSON.stringify(changes);
  const dirty = changeKey !== '{}';

  const saveNow = useCallback(
    async (edited: Partial<EditedSettings>, key: string) => {
      if (id === undefined) return;
      if (edited.name !== undefined && edited.name === '') {
        setSave({ kind: 'failed', message: 'Please provide a name.' });
        failedKey.current = key;
        return;
      }
      setSave({ kind: 'saving' });
      const result = await saveQuietly(id, edited, version.current);
      if (result.ok) {
        version.current = versionTag(result.value);
        failedKey.current = null;
        setSaveCompile(null);
        setBaseline(savedSettings(result.value));
        setSave({ kind: 'saved' });
        return;
      }
      failedKey.current = key;
      if (result.status === 412) setStale(result.message);
      setSaveCompile(result.compile);
      setSave({
        kind: 'failed',
        message: result.compile ? `the expression does not compile (line ${result.compile.line})` : result.message,
      });
    },
    [id],
  );

  // The save state follows the edits; with autoSave on, a pause in typing saves them.
  useEffect(() => {
    if (!baseline || save.kind === 'saving') return;
    if (!dirty) {
      if (save.kind !== 'saved') setSave({ kind: 'saved' });
      return;
    }
    if (failedKey.current === changeKey) return;
    if (save.kind !== 'unsaved') setSave({ kind: 'unsaved' });
    if (!autoSave) return;
    const timer = setTimeout(() => void saveNow(JSON.parse(changeKey), changeKey), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [baseline, dirty, changeKey, autoSave, save.kind, saveNow]);

  if (source !== undefined && !template) {
    return loaded ? null : <CircularProgress aria-label="Loading the template" />;
  }
  if (!editable) return null;

  async function submit(values: Values) {
    const settings = {
      name: values.name.trim(),
      description: values.description.trim(),
      adminIds: idsOf(values.adminIds),
      expression,
    };
    try {
      if (id === undefined) {
        const made = await createTemplate(settings);
        navigate(`/templates/edit/${made.id}`, { replace: true });
        return;
      }
      if (!dirty) return;
      setSave({ kind: 'saving' });
      const saved = await updateTemplate(id, changes, version.current);
      version.current = versionTag(saved);
      setSaveCompile(null);
      failedKey.current = null;
      setBaseline(savedSettings(saved));
      setSave({ kind: 'saved' });
    } catch (err) {
      if (err instanceof ApiError) {
        const compile = compileErrorOf(err.body);
        setSaveCompile(compile);
        if (id !== undefined) setSave({ kind: 'failed', message: err.message });
        if (err.status === 412) {
          failedKey.current = changeKey; // shown until the edits change, not retried as they are
          setStale(err.message);
          return;
        }
      }
      throw err;
    }
  }

  /** After a 412: the template as it is now, in place of the edits that were not saved. */
  async function reload() {
    if (id === undefined) return;
    await api.get(`${TEMPLATES_PATH}/${id}`);
    const fresh = (useStore.getState().areas.templates as Record<string, Template> | undefined)?.[String(id)];
    if (!fresh) return;
    version.current = versionTag(fresh);
    form.reset(valuesOf(fresh, false));
    setExpression(workingExpression(fresh));
    setBaseline(savedSettings(fresh));
    failedKey.current = null;
    setSaveCompile(null);
    setStale(null);
    setSave({ kind: 'saved' });
  }

  const marker = saveCompile ?? preview.compile;
  const heading = id === undefined ? 'New Template' : `Edit ${template?.name ?? 'Template'}`;

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{heading}</PageHeading>
        {id !== undefined && (
          <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
            <Button component={RouterLink} to={`/templates/${id}`} startIcon={<VisibilityIcon />}>
              View
            </Button>
            <Button component={RouterLink} to={`/templates/publish/${id}`} startIcon={<PublishIcon />}>
              Publish
            </Button>
          </Stack>
        )}
      </Box>
      <FormContainer form={form} onValid={submit}>
        <Stack spacing={1}>
          {stale && <StaleAlert message={stale} onReload={() => void reload()} testId="stale-template" />}
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 0, md: 2 }}>
            <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} sx={{ flex: 1 }} />
            <TextInput name="description" label="Description" optional maxLength={DESCRIPTION_MAX} sx={{ flex: 2 }} />
          </Stack>
          <AdminIdsInput />
          <Stack
            direction="row"
            spacing={2}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, justifyContent: 'space-between', py: 1 }}
          >
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              {id === undefined ? (
                <Button type="submit" variant="contained" disabled={form.busy}>
                  Create Template
                </Button>
              ) : (
                <>
                  <FormControlLabel
                    label="Save automatically"
                    control={<Switch checked={autoSave} onChange={(e) => setAutoSave(e.target.checked)} />}
                  />
                  {!autoSave && (
                    <Button
                      type="submit"
                      variant="contained"
                      startIcon={<SaveIcon />}
                      disabled={form.busy || !dirty || save.kind === 'saving'}
                    >
                      Save
                    </Button>
                  )}
                  <SaveStatus state={save} autoSave={autoSave} />
                </>
              )}
            </Stack>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <FieldBrowserButton state={fields} />
              <PanePresets
                size={paneSize}
                onChoose={setPaneSize}
                label="Editor width"
                itemLabel={(size) => `Editor ${size}%`}
              />
            </Stack>
          </Stack>
        </Stack>
      </FormContainer>
      <WithFieldBrowser
        state={fields}
        height={PANES_HEIGHT}
        onPick={(path) => {
          if (!editor.current) return false;
          insertAtCursor(editor.current, path);
          return true;
        }}
      >
        <SplitPane
          size={paneSize}
          onResize={setPaneSize}
          panelIds={['editor', 'preview']}
          separatorLabel="Resize the editor and the preview"
          height={PANES_HEIGHT}
          narrowHeight={900}
          left={
            <Stack sx={{ height: '100%', minHeight: 0 }} spacing={1}>
              <Typography id={hintId} variant="body2" color="text.secondary" data-testid="editor-hint">
                Tab indents. To leave the editor, press Esc, then Tab. Ctrl+Space lists fields and functions.
              </Typography>
              <CodeBox
                value={expression}
                onChange={(value) => setExpression(value)}
                error={marker}
                label="Expression"
                describedBy={hintId}
                onView={(view) => {
                  editor.current = view;
                }}
              />
              {marker && (
                <Typography color="error" variant="body2" data-testid="lint-message" sx={{ px: 1 }}>
                  Line {marker.line}, column {marker.column}: {marker.message}
                </Typography>
              )}
            </Stack>
          }
          right={
            <PreviewPane state={preview} format={format} onFormat={setFormat} sample={sample} onSample={setSample} />
          }
        />
      </WithFieldBrowser>
    </>
  );
}
