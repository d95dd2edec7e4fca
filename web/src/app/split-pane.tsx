/**
 * Two panes side by side with a separator to drag (or move with the arrow keys), and the §9 preset sizes (50, 80)
 * as a toggle group. The first pane's share is the caller's state (a setting, the query string): the panes follow
 * it when it changes, and a drag is handed back through `onResize`. On a narrow window the panes go below each
 * other, resizable or simply stacked.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PANE_SIZES } from '@tessera/common/constants';
import { type ReactNode, useEffect, useRef } from 'react';
import { Group, type GroupImperativeHandle, Panel, Separator } from 'react-resizable-panels';

/** The first pane's share of the width, kept to what the panes allow (each at least 20%). */
export function clampPaneSize(value: unknown, fallback: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.min(80, Math.max(20, Math.round(n)));
}

export function PanePresets(props: {
  size: number;
  onChoose: (size: number) => void;
  /** What the group sets, e.g. "Editor width". */
  label: string;
  /** Each button's words for a size, e.g. `Editor 50%`. */
  itemLabel: (size: number) => string;
}) {
  const { size, onChoose, label, itemLabel } = props;
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={(PANE_SIZES as readonly number[]).includes(size) ? size : null}
      onChange={(_, next: number | null) => {
        if (next !== null) onChoose(next);
      }}
      aria-label={label}
    >
      {PANE_SIZES.map((s) => (
        <ToggleButton key={s} value={s}>
          {itemLabel(s)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

export interface SplitPaneProps {
  left: ReactNode;
  right: ReactNode;
  /** The first pane's share, 20-80. */
  size: number;
  onResize: (size: number) => void;
  /** The panes' ids (the layout's keys, and the panels' element ids). */
  panelIds: [string, string];
  /** The separator's accessible name. */
  separatorLabel: string;
  /** The panes' height side by side (CSS). */
  height: string;
  /** On a narrow window: below each other with a separator of their own height, or simply stacked. */
  narrowHeight?: number;
  /** Each pane scrolls its own content. */
  scroll?: boolean;
}

export function SplitPane(props: SplitPaneProps) {
  const { left, right, size, onResize, panelIds, separatorLabel, height, narrowHeight, scroll } = props;
  const [first, second] = panelIds;
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const groupRef = useRef<GroupImperativeHandle | null>(null);
  useEffect(() => {
    const current = groupRef.current?.getLayout()[first];
    if (typeof current === 'number' && Math.round(current) !== size) {
      groupRef.current?.setLayout({ [first]: size, [second]: 100 - size });
    }
  }, [size, first, second]);
  if (narrow && narrowHeight === undefined) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }} data-testid="split-pane">
        <Box sx={{ minWidth: 0 }}>{left}</Box>
        <Box sx={{ minWidth: 0 }}>{right}</Box>
      </Box>
    );
  }
  const panelStyle = { minWidth: 0, minHeight: 0, ...(scroll ? { overflow: 'auto' } : {}) };
  return (
    <Box sx={{ height: narrow ? narrowHeight : height, minWidth: 0 }} data-testid="split-pane">
      <Group
        key={narrow ? 'vertical' : 'horizontal'}
        orientation={narrow ? 'vertical' : 'horizontal'}
        defaultLayout={{ [first]: size, [second]: 100 - size }}
        groupRef={groupRef}
        onLayoutChanged={(layout, meta) => {
          const share = layout[first];
          if (meta.isUserInteraction && typeof share === 'number') onResize(clampPaneSize(share, size));
        }}
        style={{ height: '100%' }}
      >
        <Panel id={first} minSize="20" style={panelStyle}>
          {left}
        </Panel>
        <Separator
          aria-label={separatorLabel}
          style={{
            flexBasis: 10,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            cursor: narrow ? 'row-resize' : 'col-resize',
          }}
        >
          <Box sx={{ bgcolor: 'divider', borderRadius: 1, width: narrow ? 48 : 4, height: narrow ? 4 : 48 }} />
        </Separator>
        <Panel id={second} minSize="20" style={panelStyle}>
          {right}
        </Panel>
      </Group>
    </Box>
  );
}
