/** Spec §2 menu: items and groups the user's role reaches, the active one highlighted. */
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import {
  isMenuGroup,
  MENU,
  type MenuEntry,
  type MenuGroup,
  type MenuItem,
  menuHref,
  pathMatches,
} from '@tessera/common/menu';
import { hasRank, type Role } from '@tessera/common/roles';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { config } from '../../lib/config';
import { MenuIcon } from '../icons';

/** The menu as the given role sees it: items it reaches, groups with at least one such item. */
export function visibleMenu(role: Role): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const entry of MENU) {
    if (!hasRank(role, entry.role)) continue;
    if (!isMenuGroup(entry)) {
      entries.push(entry);
      continue;
    }
    const items = entry.items.filter((item) => hasRank(role, item.role));
    if (items.length > 0) entries.push({ ...entry, items });
  }
  return entries;
}

export function groupMatches(group: MenuGroup, pathname: string): boolean {
  return (
    (group.match !== undefined && pathMatches(pathname, group.match)) ||
    group.items.some((item) => pathMatches(pathname, item.path))
  );
}

interface MenuProps {
  role: Role;
  /** Labels hidden: the collapsed rail shows icons only. */
  compact: boolean;
  onNavigate?: () => void;
}

function Item({
  item,
  compact,
  nested,
  onNavigate,
}: {
  item: MenuItem;
  compact: boolean;
  nested: boolean;
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const { href, external } = menuHref(item, window.location.hostname, config.ciHost);
  const active = !external && pathMatches(pathname, item.path);
  const content = (
    <>
      <ListItemIcon sx={{ minWidth: 40 }}>
        <MenuIcon name={item.icon} />
      </ListItemIcon>
      <ListItemText primary={item.label} sx={{ opacity: compact ? 0 : 1, whiteSpace: 'nowrap' }} />
    </>
  );
  const sx = { pl: nested && !compact ? 3 : 2, minHeight: 44 };
  if (external) {
    return (
      <ListItemButton
        component="a"
        href={href}
        target="_blank"
        rel="noopener"
        sx={sx}
        title={compact ? item.label : undefined}
      >
        {content}
      </ListItemButton>
    );
  }
  return (
    <ListItemButton
      component={Link}
      to={href}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      sx={sx}
      title={compact ? item.label : undefined}
    >
      {content}
    </ListItemButton>
  );
}

function Group({ group, compact, onNavigate }: { group: MenuGroup; compact: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const active = groupMatches(group, pathname);
  const [open, setOpen] = useState(active);
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  return (
    <>
      <ListItemButton
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        sx={{ minHeight: 44 }}
        title={compact ? group.label : undefined}
      >
        <ListItemIcon sx={{ minWidth: 40, color: active ? 'primary.main' : undefined }}>
          <MenuIcon name={group.icon} />
        </ListItemIcon>
        <ListItemText primary={group.label} sx={{ opacity: compact ? 0 : 1, whiteSpace: 'nowrap' }} />
        {!compact && (open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />)}
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        <List disablePadding>
          {group.items.map((item) => (
            <Item key={item.path} item={item} compact={compact} nested onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

export function NavMenu({ role, compact, onNavigate }: MenuProps) {
  return (
    <List component="nav" aria-label="Main menu" disablePadding>
      {visibleMenu(role).map((entry) =>
        isMenuGroup(entry) ? (
          <Group key={entry.label} group={entry} compact={compact} onNavigate={onNavigate} />
        ) : (
          <Item key={entry.path} item={entry} compact={compact} nested={false} onNavigate={onNavigate} />
        ),
      )}
    </List>
  );
}
