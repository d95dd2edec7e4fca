/** The JSONata editor, loaded on first use in its own chunk (CodeMirror is large); a plain box meanwhile. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import type { TemplateCodeProps } from './template-code';

const TemplateCode = lazy(() => import('./template-code'));

export function CodeBox(props: TemplateCodeProps & { minHeight?: number }) {
  const { minHeight = 160, ...code } = props;
  return (
    <Box
      sx={{
        height: code.height ?? '100%',
        minHeight,
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
      }}
    >
      <Suspense
        fallback={
          <Typography color="text.secondary" sx={{ p: 1 }}>
            Loading the editor…
          </Typography>
        }
      >
        <TemplateCode {...code} />
      </Suspense>
    </Box>
  );
}
