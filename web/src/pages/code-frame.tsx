/**
 * The frame of a code editor (the template and SQL editors): a bordered box with a visible focus ring around
 * CodeMirror, which each editor loads in its own chunk on first use (it is large); a plain note meanwhile.
 */
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { type ReactNode, Suspense } from 'react';

export function CodeFrame({ sx, children }: { sx?: SxProps<Theme>; children: ReactNode }) {
  return (
    <Box
      sx={[
        {
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          '& .cm-editor': { height: '100%' },
          '& .cm-editor.cm-focused': {
            outline: 2,
            outlineColor: 'primary.main',
            outlineStyle: 'solid',
            outlineOffset: -2,
          },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Suspense
        fallback={
          <Typography color="text.secondary" sx={{ p: 1 }}>
            Loading the editor…
          </Typography>
        }
      >
        {children}
      </Suspense>
    </Box>
  );
}
