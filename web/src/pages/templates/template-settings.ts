/** The template editor's remembered settings (spec §3 templates): autosave and the editor pane's share. */
import { DEFAULT_SETTINGS } from '@tessera/common/settings';
import { clampPaneSize } from '../../app/split-pane';
import { useSettings } from '../../lib/settings';

/** A stored size kept to what the panes allow (each at least 20%). */
export const paneSize = (value: unknown): number => clampPaneSize(value, DEFAULT_SETTINGS.templates.templatePaneSize);

export function useTemplateSettings() {
  const templates = useSettings((s) => s.templates) ?? DEFAULT_SETTINGS.templates;
  const update = useSettings((s) => s.update);
  return {
    autoSave: templates.autoSave !== false,
    paneSize: paneSize(templates.templatePaneSize),
    setAutoSave: (autoSave: boolean) => update({ templates: { ...templates, autoSave } }),
    setPaneSize: (templatePaneSize: number) =>
      update({ templates: { ...templates, templatePaneSize: paneSize(templatePaneSize) } }),
  };
}
