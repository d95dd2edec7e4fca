/**
 * Importing a list of values to suppress (a deletion list of hashed identifiers, say): the file goes to the server
 * as it is (text/csv), read there as it arrives; the report says what it did. A failed import applies nothing.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import type { SuppressionImportReport } from '@tessera/common/stewardship';
import { useState } from 'react';
import { useStore } from '../../../lib/store';

export function SuppressionImport({ onImported }: { onImported: () => void }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<SuppressionImportReport | null>(null);

  async function send(file: File) {
    setBusy(true);
    setReport(null);
    try {
      const res = await fetch('/v2/suppressions/import', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'text/csv', [REQUESTED_WITH_HEADER]: 'XMLHttpRequest' },
        body: file,
        credentials: 'same-origin',
      });
      const body = (await res.json().catch(() => ({}))) as {
        suppressionImport?: SuppressionImportReport;
        error?: string;
      };
      if (!res.ok || !body.suppressionImport) {
        useStore.getState().addAlert({ type: 'error', title: 'Import Failed', text: body.error ?? String(res.status) });
        return;
      }
      setReport(body.suppressionImport);
      onImported();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Import a list
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A CSV file or plain text: e-mail addresses, phone numbers, MD5 or SHA-256 hashes, one or more a line. Lines that
        hold none of these are counted and skipped.
      </Typography>
      <Button variant="outlined" component="label" disabled={busy}>
        {busy ? 'Importing…' : 'Choose a file to import'}
        <input
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void send(file);
          }}
        />
      </Button>
      {report && (
        <Alert severity={report.badLines > 0 ? 'warning' : 'success'} sx={{ mt: 2, maxWidth: 760 }} role="status">
          {`${report.lines} lines: ${report.added} added, ${report.alreadyPresent} already present, ${report.peopleMatched} people matched, ${report.badLines} bad lines`}
          {report.badLineNumbers.length > 0 && ` (lines ${report.badLineNumbers.join(', ')})`}.
        </Alert>
      )}
    </Box>
  );
}
