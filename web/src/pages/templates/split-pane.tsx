/**
 * The editor beside its preview (spec §3 templates.templatePaneSize, §9 pane sizes 50 and 80): the editor's share
 * comes from the local settings, the two preset sizes set it, and dragging the separator (or moving it with the
 * arrow keys) is remembered there. On a narrow window the preview goes below the editor.
 */

import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PANE_SIZES } from '@tessera/common/constants';
import { DEFAULT_SETTINGS } from '@tessera/common/settings';
import type { ReactNode } from 'react';
import { Group, type GroupImperativeHandle, Panel, Separator } from 'react-resizable-panels';
import { useSettings } from '../../lib/settings';

/** A stored size kept to what the panes allow (each at least 20%). */
export function paneSize(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_SETTINGS.templates.templatePaneSize;
  return Math.min(80, Math.max(20, Math.round(n)));
}

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

export function PanePresets({ onChoose }: { onChoose: (size: number) => void }) {
  const { paneSize: size } = useTemplateSettings();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={(PANE_SIZES as readonly number[]).includes(size) ? size : null}
      onChange={(_, next: number | null) => {
        if (next !== null) onChoose(next);
      }}
      aria-label="Editor width"
    >
      {PANE_SIZES.map((s) => (
        <ToggleButton key={s} value={s} aria-label={`Editor ${s}%`}>
          Editor {s}%
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

export function SplitPane({
  left,
  right,
  groupRef,
}: {
  left: ReactNode;
  right: ReactNode;
  groupRef: React.RefObject<GroupImperativeHandle | null>;
}) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const { paneSize: size, setPaneSize } = useTemplateSettings();
  return (
    <Box sx={{ height: narrow ? 900 : 'max(460px, calc(100vh - 360px))', minWidth: 0 }} data-testid="split-pane">
      <Group
        key={narrow ? 'vertical' : 'horizontal'}
        orientation={narrow ? 'vertical' : 'horizontal'}
        defaultLayout={{ editor: size, preview: 100 - size }}
        groupRef={groupRef}
        onLayoutChanged={(layout, meta) => {
          if (meta.isUserInteraction && typeof layout.editor === 'number') setPaneSize(layout.editor);
        }}
        style={{ height: '100%' }}
      >
        <Panel id="editor" minSize="20" style={{ minWidth: 0, minHeight: 0 }}>
          {left}
        </Panel>
        <Separator
          aria-label="Resize the editor and the preview"
          style={{
            flexBasis: 10,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            cursor: narrow ? 'row-resize' : 'col-resize',
          }}
        >
          <Box
            sx={{
              bgcolor: 'divider',
              borderRadius: 1,
              width: narrow ? 48 : 4,
              height: narrow ? 4 : 48,
            }}
          />
        </Separator>
        <Panel id="preview" minSize="20" style={{ minWidth: 0, minHeight: 0 }}>
          {right}
        </Panel>
      </Group>
    </Box>
  );
}
