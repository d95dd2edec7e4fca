/** One titled part of the SSH page. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box component="section" aria-labelledby={`${id}-title`} sx={{ mb: 5 }} data-testid={id}>
      <Typography id={`${id}-title`} variant="h5" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 860 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Box>
  );
}
