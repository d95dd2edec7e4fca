/**
 * Parameters | response, side by side (below each other on a narrow window). The parameter pane's share comes
 * from the query string (spec §2 default 50; §9 presets 50 and 80), and a drag or arrow-key move of the separator
 * is written back there, so a link keeps it too.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PANE_SIZES } from '@tessera/common/constants';
import { type ReactNode, useEffect, useRef } from 'react';
import { Group, type GroupImperativeHandle, Panel, Separator } from 'react-resizable-panels';
import { clampPane } from './playground-state';

export function PanePresets({ size, onChoose }: { size: number; onChoose: (size: number) => void }) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={(PANE_SIZES as readonly number[]).includes(size) ? size : null}
      onChange={(_, next: number | null) => {
        if (next !== null) onChoose(next);
      }}
      aria-label="Parameter pane width"
    >
      {PANE_SIZES.map((s) => (
        <ToggleButton key={s} value={s}>
          Parameters {s}%
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

export function SplitPane({
  left,
  right,
  size,
  onResize,
}: {
  left: ReactNode;
  right: ReactNode;
  size: number;
  onResize: (size: number) => void;
}) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const groupRef = useRef<GroupImperativeHandle | null>(null);
  useEffect(() => {
    const current = groupRef.current?.getLayout().params;
    if (typeof current === 'number' && Math.round(current) !== size) {
      groupRef.current?.setLayout({ params: size, response: 100 - size });
    }
  }, [size]);
  if (narrow) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }} data-testid="split-pane">
        <Box sx={{ minWidth: 0 }}>{left}</Box>
        <Box sx={{ minWidth: 0 }}>{right}</Box>
      </Box>
    );
  }
  return (
    <Box sx={{ height: 'max(560px, calc(100vh - 200px))', minWidth: 0 }} data-testid="split-pane">
      <Group
        orientation="horizontal"
        defaultLayout={{ params: size, response: 100 - size }}
        groupRef={groupRef}
        onLayoutChanged={(layout, meta) => {
          if (meta.isUserInteraction && typeof layout.params === 'number') onResize(clampPane(layout.params));
        }}
        style={{ height: '100%' }}
      >
        <Panel id="params" minSize="20" style={{ minWidth: 0, minHeight: 0, overflow: 'auto' }}>
          {left}
        </Panel>
        <Separator
          aria-label="Resize the parameters and the response"
          style={{
            flexBasis: 10,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            cursor: 'col-resize',
          }}
        >
          <Box sx={{ bgcolor: 'divider', borderRadius: 1, width: 4, height: 48 }} />
        </Separator>
        <Panel id="response" minSize="20" style={{ minWidth: 0, minHeight: 0, overflow: 'auto' }}>
          {right}
        </Panel>
      </Group>
    </Box>
  );
}
