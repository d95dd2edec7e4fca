/**
 * An endpoint's delivery log (issue 33): each delivery's event, message id, status, attempts, last status code,
 * latency and next attempt, newest first, paged by the server's cursor; a row opens to every attempt (when, what
 * came back or why nothing did, how long, and the start of the receiver's answer, shown as text, never as markup)
 * and has a Replay, which sends the same message again as a new delivery.
 */
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import type { WebhookAttempt, WebhookDelivery } from '@tessera/common/webhooks';
import { Fragment, useState } from 'react';
import { ListStatusRow } from '../empty-row';
import type { DeliveryLog } from './use-delivery-log';
import {
  atSeconds,
  attemptOutcome,
  DELIVERY_STATUS_COLOR,
  DELIVERY_STATUS_LABEL,
  latency,
  nextAttempt,
} from './webhook-status';

const COLUMNS = 9;

function Attempt({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <Box component="li" data-testid="webhook-attempt" sx={{ mb: 1.5 }}>
      <Typography variant="body2">
        <strong>Attempt {attempt.attempt}</strong> at {atSeconds(attempt.at)}: {attemptOutcome(attempt)},{' '}
        {latency(attempt.latencyMs)}
      </Typography>
      {attempt.responseExcerpt === '' ? (
        <Typography variant="body2" color="text.secondary">
          No response body.
        </Typography>
      ) : (
        // Text in a text node: whatever markup the receiver sent is shown as written, never rendered.
        <Box
          component="pre"
          data-testid="response-excerpt"
          sx={{
            m: 0,
            mt: 0.5,
            p: 1,
            borderRadius: 1,
            bgcolor: 'action.hover',
            fontFamily: 'monospace',
            fontSize: '0.8125rem',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {attempt.responseExcerpt}
        </Box>
      )}
    </Box>
  );
}

function Attempts({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  return (
    <TableRow>
      <TableCell colSpan={COLUMNS} sx={{ p: 1 }}>
        {/* A narrow window scrolls the wide table sideways: the attempts stay in view at its left. */}
        <Box id={id} sx={{ position: 'sticky', left: 8, maxWidth: { xs: 'calc(100vw - 64px)', md: 720 } }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Made at {atSeconds(delivery.createdAt)}
            {delivery.replayOf !== null && `, a replay of delivery ${delivery.replayOf}`}.
          </Typography>
          {delivery.attempts.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No attempt yet.
            </Typography>
          ) : (
            <Box
              component="ol"
              aria-label={`Attempts of ${delivery.messageId}`}
              sx={{ m: 0, pl: 0, listStyle: 'none' }}
            >
              {delivery.attempts.map((a) => (
                <Attempt key={a.attempt} attempt={a} />
              ))}
            </Box>
          )}
        </Box>
      </TableCell>
    </TableRow>
  );
}

export function DeliveryLogTable({
  log,
  endpointEnabled,
  onReplay,
}: {
  log: DeliveryLog;
  endpointEnabled: boolean;
  onReplay: (delivery: WebhookDelivery) => Promise<unknown>;
}) {
  const [open, setOpen] = useState<number[]>([]);
  const [replaying, setReplaying] = useState<number | null>(null);
  const deliveries = log.page?.deliveries ?? [];
  const toggle = (id: number) => setOpen(open.includes(id) ? open.filter((o) => o !== id) : [...open, id]);
  const shownBefore = log.index * log.pageSize;
  const paged = log.index > 0 || Boolean(log.page?.next) || deliveries.length > TABLE_PAGE_SIZES[0];

  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Delivery log table">
      <Table size="small" aria-label="Deliveries">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" sx={{ position: 'relative' }}>
              <Box component="span" sx={visuallyHidden}>
                Attempts
              </Box>
            </TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Message ID</TableCell>
            <TableCell align="right">Attempts</TableCell>
            <TableCell align="right">Last Status</TableCell>
            <TableCell align="right">Latency</TableCell>
            <TableCell>Next Attempt</TableCell>
            <TableCell sx={{ position: 'relative' }}>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((d) => {
            const expanded = open.includes(d.id);
            const attemptsId = `delivery-${d.id}-attempts`;
            return (
              <Fragment key={d.id}>
                <TableRow data-testid="delivery-row" data-delivery-id={d.id} data-status={d.status}>
                  <TableCell padding="checkbox">
                    <IconButton
                      size="small"
                      aria-expanded={expanded}
                      aria-controls={expanded ? attemptsId : undefined}
                      aria-label={`Attempts of ${d.messageId}`}
                      onClick={() => toggle(d.id)}
                    >
                      {expanded ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                    </IconButton>
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={DELIVERY_STATUS_COLOR[d.status]}
                      label={DELIVERY_STATUS_LABEL[d.status]}
                      data-testid="delivery-status"
                    />
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{d.eventType}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{d.messageId}</TableCell>
                  <TableCell align="right">{d.attemptCount}</TableCell>
                  <TableCell align="right" data-testid="last-status">
                    {d.lastStatusCode ?? ''}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {latency(d.lastLatencyMs)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{nextAttempt(d, endpointEnabled)}</TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      aria-label={`Replay ${d.messageId}`}
                      disabled={!endpointEnabled || replaying !== null}
                      onClick={() => {
                        setReplaying(d.id);
                        onReplay(d).finally(() => setReplaying(null));
                      }}
                    >
                      Replay
                    </Button>
                  </TableCell>
                </TableRow>
                {expanded && <Attempts delivery={d} id={attemptsId} />}
              </Fragment>
            );
          })}
          <ListStatusRow columns={COLUMNS} state={log} empty={deliveries.length === 0} what="the delivery log">
            No deliveries yet. Send a test event to see one here.
          </ListStatusRow>
        </TableBody>
      </Table>
      {paged && (
        <TablePagination
          component="div"
          count={log.page?.next ? -1 : shownBefore + deliveries.length}
          page={log.index}
          rowsPerPage={log.pageSize}
          rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
          onPageChange={(_, next) => (next > log.index ? log.older() : log.newer())}
          onRowsPerPageChange={(e) => log.setPageSize(Number(e.target.value))}
        />
      )}
    </TableContainer>
  );
}

/** Read by screen readers, not shown; its cell is positioned, so it stays inside the scrolling table. */
const visuallyHidden = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
