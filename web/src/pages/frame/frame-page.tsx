/**
 * The frame of a page whose content later work fills: its title, what it will hold, and for resource routes
 * which record and action the address names. It never shows made-up data.
 */
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import type { ResourceParams } from '@tessera/common/routes';
import { routeTitle } from '@tessera/common/routes';
import type { PageProps } from '../../app/page-modules';
import { PageHeading } from '../page-heading';
import { PAGE_DESCRIPTIONS } from './page-descriptions';

const VERBS: Record<ResourceParams['mode'], string> = {
  create: 'Creating',
  view: 'Viewing',
  edit: 'Editing',
  publish: 'Publishing',
  delete: 'Deleting',
};

/** "Viewing contract 12", "Deleting users 5, 6", "Creating a template from template 3". */
export function resourceText(title: string, resource: ResourceParams): string {
  const noun = title.toLowerCase();
  const { mode, ids } = resource;
  if (mode === 'create') {
    return ids.length === 0
      ? `Creating a new ${noun}`
      : `Creating a ${noun} from ${noun}${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`;
  }
  return `${VERBS[mode]} ${noun}${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`;
}

export default function FramePage({ route, params, resource }: PageProps) {
  const title = routeTitle(route, params);
  return (
    <>
      <PageHeading>{title}</PageHeading>
      {resource && (
        <Typography variant="subtitle1" color="text.secondary" sx={{ mb: 2 }} data-testid="resource-summary">
          {resourceText(title, resource)}
        </Typography>
      )}
      <Alert severity="info" variant="outlined" sx={{ maxWidth: 720 }}>
        {PAGE_DESCRIPTIONS[route.module] ?? `The ${title} page.`} This page is not available yet.
      </Alert>
    </>
  );
}
