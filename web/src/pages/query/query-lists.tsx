/** The user's history and saved queries beside the editor: pick one to load it; saved ones can be deleted. */
import DeleteIcon from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { formatDate } from '@tessera/common/dates';
import type { QueryRun, SavedQuery } from '@tessera/common/query-console';
import { useState } from 'react';

const OUTCOMES: Record<string, string> = {
  ok: 'OK',
  error: 'Error',
  timeout: 'Timed out',
  cancelled: 'Cancelled',
  refused: 'Refused',
  running: 'Running',
};

function firstLine(sql: string): string {
  const line = sql.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

export function QueryLists(props: {
  history: QueryRun[];
  saved: SavedQuery[];
  onPick: (item: { cluster: string; sql: string }) => void;
  onDelete: (id: number) => void;
}) {
  const [tab, setTab] = useState(0);
  return (
    <>
      <Tabs value={tab} onChange={(_, next) => setTab(next)} aria-label="History and saved queries">
        <Tab label="History" id="query-tab-history" aria-controls="query-panel-history" />
        <Tab label="Saved" id="query-tab-saved" aria-controls="query-panel-saved" />
      </Tabs>
      <div role="tabpanel" id="query-panel-history" aria-labelledby="query-tab-history" hidden={tab !== 0}>
        <List dense sx={{ maxHeight: 480, overflow: 'auto' }}>
          {props.history.map((run) => (
            <ListItem key={run.id} disablePadding>
              <ListItemButton onClick={() => props.onPick(run)}>
                <ListItemText
                  primary={firstLine(run.sql)}
                  secondary={`${run.cluster} · ${OUTCOMES[run.outcome] ?? run.outcome}${
                    run.rowCount === null ? '' : ` · ${run.rowCount} ${run.rowCount === 1 ? 'row' : 'rows'}`
                  } · ${formatDate(run.startedAt)}`}
                  slotProps={{ primary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
          {props.history.length === 0 && (
            <ListItem>
              <ListItemText secondary="No queries yet." />
            </ListItem>
          )}
        </List>
      </div>
      <div role="tabpanel" id="query-panel-saved" aria-labelledby="query-tab-saved" hidden={tab !== 1}>
        <List dense sx={{ maxHeight: 480, overflow: 'auto' }}>
          {props.saved.map((query) => (
            <ListItem
              key={query.id}
              disablePadding
              secondaryAction={
                <IconButton edge="end" aria-label={`Delete ${query.name}`} onClick={() => props.onDelete(query.id)}>
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemButton onClick={() => props.onPick(query)}>
                <ListItemText primary={query.name} secondary={`${query.cluster} · ${firstLine(query.sql)}`} />
              </ListItemButton>
            </ListItem>
          ))}
          {props.saved.length === 0 && (
            <ListItem>
              <ListItemText secondary="No saved queries." />
            </ListItem>
          )}
        </List>
      </div>
    </>
  );
}
