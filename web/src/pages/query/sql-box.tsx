/** The SQL editor's frame: loads CodeMirror in its own chunk on first use, a plain note meanwhile. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import type { SqlEditorProps } from './sql-editor';

const SqlEditor = lazy(() => import('./sql-editor'));

export function SqlBox(props: SqlEditorProps) {
  return (
    <Box
      sx={{
        height: 220,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        resize: 'vertical',
        '& .cm-editor': { height: '100%' },
        '& .cm-editor.cm-focused': {
          outline: 2,
          outlineColor: 'primary.main',
          outlineStyle: 'solid',
          outlineOffset: -2,
        },
      }}
    >
      <Suspense
        fallback={
          <Typography color="text.secondary" sx={{ p: 1 }}>
            Loading the editor…
          </Typography>
        }
      >
        <SqlEditor {...props} />
      </Suspense>
    </Box>
  );
}
