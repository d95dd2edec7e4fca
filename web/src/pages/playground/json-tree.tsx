/**
 * A JSON reply as a collapsible tree: objects and arrays as disclosure buttons (their first three levels open: a reply, its list, each identity),
 * strings and other values told apart by the theme's two text colours.
 */
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useState } from 'react';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function Leaf({ value }: { value: Json }) {
  // Theme text colours only: both themes keep AA contrast.
  const color = typeof value === 'string' ? 'text.primary' : 'text.secondary';
  return (
    <Box component="span" sx={{ color, wordBreak: 'break-all' }}>
      {JSON.stringify(value)}
    </Box>
  );
}

function Node({ name, value, depth }: { name: string | null; value: Json; depth: number }) {
  const branch = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < 3);
  const label =
    name === null ? null : (
      <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>
        {name}:{' '}
      </Box>
    );
  if (!branch) {
    return (
      <Box sx={{ pl: 2 }}>
        {label}
        <Leaf value={value} />
      </Box>
    );
  }
  const entries: [string, Json][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, Json>);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <Box sx={{ pl: depth === 0 ? 0 : 2 }}>
      <ButtonBase
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        sx={{ font: 'inherit', color: 'text.primary', borderRadius: 0.5, px: 0.25 }}
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}&nbsp;</span>
        {label}
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {summary}
        </Box>
      </ButtonBase>
      {open && entries.map(([k, v]) => <Node key={k} name={k} value={v} depth={depth + 1} />)}
    </Box>
  );
}

export function JsonTree({ value }: { value: unknown }) {
  return (
    <Box
      data-testid="json-tree"
      sx={{ fontFamily: 'monospace', fontSize: 13, lineHeight: 1.6, overflowWrap: 'anywhere', minWidth: 0 }}
    >
      <Node name={null} value={value as Json} depth={0} />
    </Box>
  );
}
