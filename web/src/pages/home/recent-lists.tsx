/**
 * The home page's short lists (issue 16): the user's own keys by last use and the most recently edited templates,
 * each linking to its page, read from the store so the socket's pushes show at once.
 */
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { KeyEntry } from '@tessera/common/key-settings';
import type { Template } from '@tessera/common/templates';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatMetric } from '../../lib/usage-format';

interface Item {
  id: string;
  to: string;
  primary: string;
  secondary: string;
}

function RecentCard(props: {
  id: string;
  title: string;
  items: Item[];
  loaded: boolean;
  empty: ReactNode;
  links: { to: string; label: string }[];
}) {
  const { id, title, items, loaded, empty, links } = props;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-heading`} sx={{ p: 2, height: '100%' }}>
      <Typography variant="h6" component="h2" id={`${id}-heading`}>
        {title}
      </Typography>
      {!loaded && items.length === 0 ? (
        <Typography color="textSecondary">Loading…</Typography>
      ) : items.length === 0 ? (
        <Typography color="textSecondary" data-testid={`${id}-empty`} sx={{ my: 1 }}>
          {empty}
        </Typography>
      ) : (
        <List dense disablePadding aria-labelledby={`${id}-heading`} data-testid={`${id}-list`}>
          {items.map((item) => (
            <ListItem key={item.id} disablePadding>
              <ListItemButton component={RouterLink} to={item.to} sx={{ px: 1, mx: -1 }}>
                <ListItemText
                  primary={item.primary}
                  secondary={item.secondary}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', mt: 1 }}>
        {links.map((link) => (
          <Link key={link.to} component={RouterLink} to={link.to}>
            {link.label}
          </Link>
        ))}
      </Stack>
    </Paper>
  );
}

/** 'Last used …' (or 'Never used') and the calls this month, when the server tells them. */
export function keyUse(key: KeyEntry): string {
  const used =
    key.lastUsedAt === undefined
      ? ''
      : key.lastUsedAt === null
        ? 'Never used'
        : `Last used ${formatDate(key.lastUsedAt)}`;
  const calls =
    key.callsThisMonth === undefined
      ? ''
      : `${formatMetric('requests', key.callsThisMonth)} ${key.callsThisMonth === 1 ? 'call' : 'calls'} this month`;
  return [used, calls].filter(Boolean).join(' · ');
}

export function RecentKeys({ keys, loaded, userId }: { keys: KeyEntry[]; loaded: boolean; userId: number }) {
  return (
    <RecentCard
      id="home-keys"
      title="Your API keys"
      loaded={loaded}
      items={keys.map((key) => ({ id: key.id, to: `/keys/${key.id}`, primary: key.name, secondary: keyUse(key) }))}
      empty={
        <>
          You have no API keys yet.{' '}
          <Link component={RouterLink} to="/keys/add">
            Create your first key
          </Link>
          .
        </>
      }
      links={
        keys.length > 0
          ? [
              { to: '/keys/add', label: 'New key' },
              { to: `/users/${userId}#keys`, label: 'All your keys' },
            ]
          : []
      }
    />
  );
}

export function RecentTemplates(props: { templates: Template[]; loaded: boolean; mayCreate: boolean }) {
  const { templates, loaded, mayCreate } = props;
  return (
    <RecentCard
      id="home-templates"
      title="Recently edited templates"
      loaded={loaded}
      items={templates.map((t) => ({
        id: String(t.id),
        to: `/templates/${t.id}`,
        primary: t.name,
        secondary: `Edited ${formatDate(t.updatedAt)}`,
      }))}
      empty="No templates yet."
      links={[
        ...(mayCreate ? [{ to: '/templates/add', label: 'New template' }] : []),
        ...(templates.length > 0 ? [{ to: '/templates', label: 'All templates' }] : []),
      ]}
    />
  );
}
