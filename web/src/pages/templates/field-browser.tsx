/**
 * The field reference beside the template editor: the record's fields (read from its schema) as a tree with each
 * field's type and description, a filter, and a pick (Enter or a click) that writes the field's path at the editor's
 * cursor. A panel to the editor's left on a wide window, a drawer on a narrow one; a button shows and hides it.
 */

import type { EditorView } from '@codemirror/view';
import CloseIcon from '@mui/icons-material/Close';
import ListAltIcon from '@mui/icons-material/ListAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { FieldTree } from './field-tree';
import { filterFields, RECORD_FIELDS, type RecordField } from './record-fields';

/** Writes text at the editor's cursor (in place of a selection), as typing would, and keeps it in view. */
export function insertAtCursor(view: EditorView, text: string): void {
  view.dispatch(view.state.replaceSelection(text), { scrollIntoView: true, userEvent: 'input.paste' });
}

/** Whether the reference is shown: at first on a wide window, not on a narrow one; the button changes it. */
export function useFieldBrowser() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const [open, setOpen] = useState(!narrow);
  const id = useId();
  return { open, setOpen, narrow, id };
}

export type FieldBrowserState = ReturnType<typeof useFieldBrowser>;

export function FieldBrowserButton({ state }: { state: FieldBrowserState }) {
  return (
    <Button
      startIcon={<ListAltIcon />}
      aria-expanded={state.open}
      {...(state.open ? { 'aria-controls': state.id } : {})}
      onClick={() => state.setOpen(!state.open)}
    >
      Field reference
    </Button>
  );
}

function FieldBrowser({ id, onPick, onClose }: { id: string; onPick: (f: RecordField) => void; onClose: () => void }) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => filterFields(RECORD_FIELDS, filter), [filter]);
  const headingId = `${id}-heading`;
  return (
    <Paper
      variant="outlined"
      component="section"
      id={id}
      aria-labelledby={headingId}
      data-testid="field-browser"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: 1.5, gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography component="h2" variant="subtitle1" id={headingId} sx={{ fontWeight: 600 }}>
          Record fields
        </Typography>
        <IconButton size="small" aria-label="Close the field reference" onClick={onClose}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      <Typography variant="body2" color="text.secondary">
        Press Enter on a field, or click it, to write its path at the editor’s cursor.
      </Typography>
      <TextField
        size="small"
        type="search"
        label="Filter fields"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        autoComplete="off"
      />
      <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto', mx: -0.5, px: 0.5 }}>
        {shown.length ? (
          <FieldTree fields={shown} label="Record fields" onPick={onPick} allOpen={filter.trim() !== ''} />
        ) : (
          <Typography color="text.secondary" sx={{ p: 1 }}>
            No field matches “{filter.trim()}”.
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

/**
 * The editor and preview (`children`) with the field reference to their left, or in a drawer on a narrow window;
 * a picked field's path goes to `onPick`, and a status line says what was written.
 */
export function WithFieldBrowser(props: {
  state: FieldBrowserState;
  onPick: (path: string) => boolean;
  height: string;
  children: ReactNode;
}) {
  const { state, onPick, height, children } = props;
  const [said, setSaid] = useState('');
  const pick = (field: RecordField) => {
    const done = onPick(field.path);
    setSaid(done ? `Wrote ${field.path} at the cursor.` : 'The editor is still loading.');
    if (done && state.narrow) state.setOpen(false);
  };
  const close = () => state.setOpen(false);
  const browser = <FieldBrowser id={state.id} onPick={pick} onClose={close} />;
  return (
    <Box sx={{ display: 'flex', gap: 2, minWidth: 0 }}>
      {state.open && !state.narrow && <Box sx={{ width: 300, flexShrink: 0, height }}>{browser}</Box>}
      <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
      {state.narrow && (
        <Drawer
          anchor="right"
          open={state.open}
          onClose={close}
          // Over the top bar, which sits over the navigation drawer.
          sx={{ zIndex: (theme) => theme.zIndex.drawer + 3 }}
          slotProps={{ paper: { sx: { width: 'min(360px, 92vw)' } } }}
        >
          {browser}
        </Drawer>
      )}
      <Box role="status" data-testid="field-status" sx={visuallyHidden}>
        {said}
      </Box>
    </Box>
  );
}

/** Read by screen readers, not shown (sx would read a bare 1 as 100%). */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
