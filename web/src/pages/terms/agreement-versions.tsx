/**
 * Agreement versions (issue 18 item 5), for super+ on the Terms page: every version with how many accepted it,
 * who accepted one, and publishing a new version. The server sanitises the HTML on save; publishing sends every
 * user, the publisher too, back through the agreement at their next request.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  AGREEMENT_LIMITS,
  AGREEMENT_MESSAGES,
  type AgreementAcceptance,
  type AgreementVersion,
} from '@tessera/common/contact';
import { formatDate } from '@tessera/common/dates';
import { useEffect, useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { confirmInDialog } from '../confirm-dialog';

interface Acceptances {
  agreementId: number;
  total: number;
  acceptances: AgreementAcceptance[];
}

export function AgreementVersions({ current }: { current: string | undefined }) {
  const [versions, setVersions] = useState<AgreementVersion[] | null>(null);
  const [who, setWho] = useState<Acceptances | null>(null);
  const form = useForm({ html: '' });

  useEffect(() => {
    api
      .get<{ agreementVersions: AgreementVersion[] }>('/v2/terms/versions')
      .then((reply) => setVersions(reply.agreementVersions))
      .catch(() => setVersions([]));
  }, []);

  async function showAcceptances(id: number) {
    const reply = await api.get<{ agreementAcceptances: Acceptances }>(`/v2/terms/versions/${id}/acceptances`);
    setWho(reply.agreementAcceptances);
  }

  /** Asks first; a refusal (400) rejects, so the form puts its message on the field. */
  function publish(values: { html: string }) {
    return new Promise<void>((resolve, reject) => {
      confirmInDialog({
        title: 'Publish a new version?',
        text: 'Every user, you included, will have to accept the new version before going on.',
        confirmLabel: 'Publish',
        onCancel: resolve,
        onConfirm: async () => {
          try {
            await api.post('/v2/terms/versions', { html: values.html });
          } catch (err) {
            reject(err);
            throw err;
          }
          useStore.getState().addAlert({
            type: 'success',
            title: AGREEMENT_MESSAGES.publishedTitle,
            text: AGREEMENT_MESSAGES.publishedText,
          });
          resolve();
          // The publisher is a signer now: who we are and the new text bring the accept button.
          await api.get('/v2/self').catch(() => undefined);
          await api.get('/v2/terms').catch(() => undefined);
        },
      });
    });
  }

  return (
    <Box component="section" aria-labelledby="agreement-versions-title" sx={{ mt: 5 }} data-testid="agreement-versions">
      <Typography id="agreement-versions-title" variant="h5" component="h2" sx={{ mb: 2 }}>
        Agreement versions
      </Typography>
      {versions === null ? (
        <CircularProgress aria-label="Loading the versions" />
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Agreement versions">
            <TableHead>
              <TableRow>
                <TableCell>Version</TableCell>
                <TableCell>Published</TableCell>
                <TableCell align="right">Accepted by</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {versions.map((v) => (
                <TableRow key={v.id} data-testid="agreement-version">
                  <TableCell>
                    {v.id} {v.current && <Chip size="small" color="primary" label="Current" />}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(v.createdAt)}</TableCell>
                  <TableCell align="right">{v.acceptances}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => void showAcceptances(v.id).catch(() => undefined)}>
                      Who accepted
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {who && (
        <Paper variant="outlined" sx={{ p: 2, mt: 2 }} data-testid="agreement-acceptances">
          <Typography component="h3" sx={{ fontWeight: 500, mb: 1 }}>
            Version {who.agreementId}: accepted by {who.total} {who.total === 1 ? 'user' : 'users'}
          </Typography>
          {who.acceptances.length === 0 ? (
            <Typography color="text.secondary">Nobody yet.</Typography>
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {who.acceptances.map((a) => (
                <li key={a.userId}>
                  {a.name ? `${a.name} <${a.email}>` : a.email}, {formatDate(a.acceptedAt)}
                </li>
              ))}
            </Box>
          )}
          {who.total > who.acceptances.length && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              The {who.acceptances.length} most recent are shown.
            </Typography>
          )}
        </Paper>
      )}
      <Typography variant="h6" component="h3" sx={{ mt: 4, mb: 1 }}>
        Publish a new version
      </Typography>
      <FormContainer form={form} onValid={publish}>
        <Stack spacing={1}>
          <TextInput
            name="html"
            label="Agreement HTML"
            what="the agreement text"
            multiline
            minRows={8}
            maxRows={20}
            maxLength={AGREEMENT_LIMITS.html}
            helperText="Scripts, styles, event handlers and unsafe links are removed when it is saved."
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
          />
          <Stack direction="row" spacing={2}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Publish new version
            </Button>
            <Button disabled={!current || form.busy} onClick={() => form.reset({ html: current ?? '' })}>
              Start from the current version
            </Button>
          </Stack>
        </Stack>
      </FormContainer>
    </Box>
  );
}
