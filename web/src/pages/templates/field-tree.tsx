/**
 * The record's fields as a WAI-ARIA tree (the APG tree view pattern; MUI X's tree view is not installed): one tab
 * stop, Up and Down to move, Right to open a field with fields or go into it, Left to close it or go to its parent,
 * Home and End, a letter to jump to the next field starting with it, and Enter (or a click) to pick the field.
 * The items are one flat list with their levels and places (the pattern's flat form), so each is named by its own
 * row alone: the field's name, type and description, as shown.
 */
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import { type KeyboardEvent, useRef, useState } from 'react';
import { fieldInfo, type RecordField } from './record-fields';

const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

interface Shown {
  field: RecordField;
  level: number;
  /** How many fields share its parent, and its place among them (from 1). */
  size: number;
  position: number;
  parent?: string;
}

/** The fields in view, top to bottom: open ones show their fields. */
export function shownFields(fields: RecordField[], open: (path: string) => boolean, level = 1, parent?: string) {
  const out: Shown[] = [];
  for (const [i, field] of fields.entries()) {
    out.push({ field, level, size: fields.length, position: i + 1, ...(parent ? { parent } : {}) });
    if (field.children.length && open(field.path))
      out.push(...shownFields(field.children, open, level + 1, field.path));
  }
  return out;
}

export interface FieldTreeProps {
  fields: RecordField[];
  /** The tree's accessible name. */
  label: string;
  onPick: (field: RecordField) => void;
  /** Every field with fields shown open (while a filter is applied). */
  allOpen?: boolean;
}

export function FieldTree({ fields, label, onPick, allOpen = false }: FieldTreeProps) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const [active, setActive] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const isOpen = (path: string) => allOpen || opened.has(path);
  const shown = shownFields(fields, isOpen);
  const current = shown.find((s) => s.field.path === active) ?? shown[0];

  const toggle = (path: string, open: boolean) =>
    setOpened((prev) => {
      const next = new Set(prev);
      if (open) next.add(path);
      else next.delete(path);
      return next;
    });
  const focus = (path: string | undefined) => {
    if (!path) return;
    setActive(path);
    items.current.get(path)?.focus();
  };

  function onKeyDown(event: KeyboardEvent) {
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    const at = shown.indexOf(current);
    const { field } = current;
    const hasChildren = field.children.length > 0;
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focus(shown[at + 1]?.field.path);
        break;
      case 'ArrowUp':
        focus(shown[at - 1]?.field.path);
        break;
      case 'Home':
        focus(shown[0]?.field.path);
        break;
      case 'End':
        focus(shown[shown.length - 1]?.field.path);
        break;
      case 'ArrowRight':
        if (hasChildren && !isOpen(field.path)) toggle(field.path, true);
        else if (hasChildren) focus(field.children[0]?.path);
        break;
      case 'ArrowLeft':
        if (hasChildren && isOpen(field.path) && !allOpen) toggle(field.path, false);
        else focus(current.parent);
        break;
      case 'Enter':
        onPick(field);
        break;
      default:
        handled = event.key.length === 1 && /\S/.test(event.key);
        if (handled) {
          const key = event.key.toLowerCase();
          const order = [...shown.slice(at + 1), ...shown.slice(0, at + 1)];
          focus(order.find((s) => s.field.name.toLowerCase().startsWith(key))?.field.path);
        }
    }
    if (handled) event.preventDefault();
  }

  function item({ field, level, size, position }: Shown) {
    const hasChildren = field.children.length > 0;
    const open = hasChildren && isOpen(field.path);
    const Chevron = open ? ExpandMoreIcon : ChevronRightIcon;
    const info = fieldInfo(field);
    return (
      <Box
        component="li"
        key={field.path}
        role="treeitem"
        aria-level={level}
        aria-setsize={size}
        aria-posinset={position}
        aria-expanded={hasChildren ? open : undefined}
        data-path={field.path}
        tabIndex={field.path === current?.field.path ? 0 : -1}
        ref={(el: HTMLLIElement | null) => {
          if (el) items.current.set(field.path, el);
          else items.current.delete(field.path);
        }}
        onFocus={() => setActive(field.path)}
        onClick={() => {
          setActive(field.path);
          onPick(field);
        }}
        sx={{
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: '24px 1fr',
          columnGap: 0.5,
          py: 0.5,
          pr: 1,
          pl: (level - 1) * 2,
          borderRadius: 1,
          cursor: 'pointer',
          '&:hover': { bgcolor: 'action.hover' },
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid', outlineOffset: -2 },
        }}
      >
        {hasChildren ? (
          <Chevron
            aria-hidden
            fontSize="small"
            sx={{ mt: '1px', color: 'text.secondary' }}
            onClick={(e) => {
              e.stopPropagation();
              setActive(field.path);
              toggle(field.path, !open);
            }}
          />
        ) : (
          <span />
        )}
        <Box sx={{ minWidth: 0, display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'baseline' }}>
          <Box component="span" sx={{ fontFamily: MONOSPACE, fontSize: 14, fontWeight: 500 }}>
            {field.name}
          </Box>
          {/* Spaces between the parts of the item's name (a flex row shows none). */}{' '}
          <Box component="span" sx={{ fontSize: 12, color: 'text.secondary', fontFamily: MONOSPACE }}>
            {field.type}
          </Box>
          {info && ' '}
          {info && (
            <Box component="span" sx={{ flexBasis: '100%', fontSize: 13, color: 'text.secondary' }}>
              {info}
            </Box>
          )}
        </Box>
      </Box>
    );
  }

  return (
    <Box component="ul" role="tree" aria-label={label} onKeyDown={onKeyDown} sx={{ m: 0, p: 0 }}>
      {shown.map(item)}
    </Box>
  );
}
