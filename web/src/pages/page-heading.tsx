/** The heading every page starts with; tests and assistive technology find it by its test id and level. */
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h4" component="h1" data-testid="page-title" sx={{ mb: 2, fontWeight: 500 }}>
      {children}
    </Typography>
  );
}
