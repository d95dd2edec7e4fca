/**
 * Spec §2 menu: items and groups the user's role reaches, the active one highlighted. Groups open in place in
 * the full and icon-only drawers; in the rail, which has no room for them, they open as flyouts beside it, on
 * a pointer resting 300 ms and closing 250 ms after it leaves (spec §9), or at once on a click or key.
 */
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import { SUBMENU_CLOSE_DELAY_MS, SUBMENU_OPEN_DELAY_MS } from '@tessera/common/constants';
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
import { type FocusEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { config } from '../../lib/config';
import { MenuIcon } from '../icons';
import { useHoverIntent } from './use-hover-intent';

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
  /** The rail: groups open as flyouts beside it. */
  flyouts?: boolean;
  /** Told when a group's flyout opens or closes (the rail stays expanded while one is open). */
  onFlyoutChange?: (group: string, open: boolean) => void;
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

/** A group's icon and label, then what opening it does: expand below (▾/▴) or fly out to the side (▸). */
function GroupHeading({ group, compact, indicator }: { group: MenuGroup; compact: boolean; indicator: ReactNode }) {
  const { pathname } = useLocation();
  const active = groupMatches(group, pathname);
  return (
    <>
      <ListItemIcon sx={{ minWidth: 40, color: active ? 'primary.main' : undefined }}>
        <MenuIcon name={group.icon} />
      </ListItemIcon>
      <ListItemText primary={group.label} sx={{ opacity: compact ? 0 : 1, whiteSpace: 'nowrap' }} />
      {!compact && indicator}
    </>
  );
}

/** A group opening in place, on a click. */
function Group({ group, compact, onNavigate }: { group: MenuGroup; compact: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const active = groupMatches(group, pathname);
  const [open, setOpen] = useState(active);
  const id = useId();
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  return (
    <>
      <ListItemButton
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls={id}
        sx={{ minHeight: 44 }}
        title={compact ? group.label : undefined}
      >
        <GroupHeading
          group={group}
          compact={compact}
          indicator={open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        />
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        {/* Not a <ul>: its entries are links, not list items. */}
        <List component="div" role="group" aria-label={group.label} id={id} disablePadding>
          {group.items.map((item) => (
            <Item key={item.path} item={item} compact={compact} nested onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

/** A group of the rail, opening as a flyout beside it. */
function FlyoutGroup({
  group,
  compact,
  onOpenChange,
}: {
  group: MenuGroup;
  compact: boolean;
  onOpenChange?: (group: string, open: boolean) => void;
}) {
  const { pathname } = useLocation();
  const intent = useHoverIntent(SUBMENU_OPEN_DELAY_MS, SUBMENU_CLOSE_DELAY_MS);
  const { open, close } = intent;
  const [heading, setHeading] = useState<HTMLDivElement | null>(null);
  const id = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation closes the flyout
  useEffect(() => close(), [pathname, close]);
  useEffect(() => onOpenChange?.(group.label, open), [onOpenChange, group.label, open]);
  useEffect(() => () => onOpenChange?.(group.label, false), [onOpenChange, group.label]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    close();
    heading?.focus();
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close();
  };

  return (
    // The flyout is rendered inside this box (no portal), so moving from the heading into it is not leaving.
    <Box onMouseEnter={intent.enter} onMouseLeave={intent.leave} onKeyDown={onKeyDown} onBlur={onBlur}>
      <ListItemButton
        ref={setHeading}
        onClick={intent.toggle}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        sx={{ minHeight: 44 }}
        title={compact ? group.label : undefined}
      >
        <GroupHeading group={group} compact={compact} indicator={<ChevronRight fontSize="small" />} />
      </ListItemButton>
      <Popper
        open={open}
        anchorEl={heading}
        placement="right-start"
        disablePortal
        // Fixed, so the rail's own scrolling box does not clip it.
        popperOptions={{ strategy: 'fixed' }}
        sx={{ zIndex: (theme) => theme.zIndex.drawer + 2 }}
      >
        <Paper elevation={8} id={id} role="group" aria-label={group.label} sx={{ minWidth: 200, py: 0.5 }}>
          <List component="div" disablePadding>
            {group.items.map((item) => (
              <Item key={item.path} item={item} compact={false} nested={false} />
            ))}
          </List>
        </Paper>
      </Popper>
    </Box>
  );
}

export function NavMenu({ role, compact, flyouts = false, onFlyoutChange, onNavigate }: MenuProps) {
  return (
    <List component="nav" aria-label="Main menu" disablePadding>
      {visibleMenu(role).map((entry) =>
        isMenuGroup(entry) ? (
          flyouts ? (
            <FlyoutGroup key={entry.label} group={entry} compact={compact} onOpenChange={onFlyoutChange} />
          ) : (
            <Group key={entry.label} group={entry} compact={compact} onNavigate={onNavigate} />
          )
        ) : (
          <Item key={entry.path} item={entry} compact={compact} nested={false} onNavigate={onNavigate} />
        ),
      )}
    </List>
  );
}
