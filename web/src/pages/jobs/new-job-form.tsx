/**
 * New Job (issue 33 item 3): a CSV file, the endpoint that looks its rows up, the template, the result's format and
 * the lookup options. The file is sent as it is (the server reads it as it arrives, any length); what the server
 * refuses (a header naming no input of the endpoint, an organization that may not call, a rate limit) is shown in an
 * alert beside the form, in the server's words. A job made goes to the top of the page's list.
 */
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatBytes } from '@tessera/common/constants';
import { errorTitle } from '@tessera/common/errors';
import { JOB_FORMATS, type Job } from '@tessera/common/jobs';
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_ENDPOINTS, type LookupEndpoint } from '@tessera/common/lookups';
import { useState } from 'react';
import { type FormApi, FormContainer, type FormFailure, FormOutcome, TextInput, useForm } from '../../forms';
import { useField } from '../../forms/form-context';
import { ApiError } from '../../lib/api';
import { startJob } from './job-api';
import { FORMAT_LABEL } from './job-format';
import {
  EMPTY_JOB,
  JOB_FORM_MESSAGES,
  jobOptionsOf,
  limitProblem,
  minScoreProblem,
  type NewJobValues,
} from './new-job-values';

/** A field's width beside the others from a tablet's width up; the whole line on a phone. */
const width = (px: number) => ({ width: { xs: '100%', sm: px } });

export interface TemplateChoice {
  id: number;
  name: string;
}

/** The file chooser, a field of the form: required, its error under it, focused from the banner's list. */
function CsvFileField({ file, onFile }: { file: File | null; onFile: (file: File | null) => void }) {
  const form = useField('file', {
    label: 'CSV file',
    check: (value) => (value === '' ? JOB_FORM_MESSAGES.file : undefined),
  }) as FormApi<NewJobValues>;
  const error = form.errors.file;
  const helpId = `${form.inputId('file')}-help`;
  return (
    <Box>
      <Button
        id={form.inputId('file')}
        component="label"
        variant="outlined"
        color={error ? 'error' : 'primary'}
        startIcon={<UploadFileIcon />}
        aria-describedby={helpId}
      >
        Choose a CSV file
        <input
          type="file"
          accept=".csv,text/csv"
          hidden
          data-testid="job-file"
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            e.target.value = '';
            onFile(chosen);
            form.setValue('file', chosen?.name ?? '');
            form.blur('file');
          }}
        />
      </Button>
      <FormHelperText id={helpId} error={Boolean(error)} data-testid="chosen-file" sx={{ overflowWrap: 'anywhere' }}>
        {error ??
          (file
            ? `${file.name}, ${formatBytes(file.size)}`
            : 'A header row naming input columns, then one input a row.')}
      </FormHelperText>
    </Box>
  );
}

export function NewJobForm({ templates, onMade }: { templates: TemplateChoice[]; onMade: (job: Job) => void }) {
  const form = useForm<NewJobValues>(EMPTY_JOB);
  const [file, setFile] = useState<File | null>(null);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const [done, setDone] = useState('');
  const endpoint = (LOOKUP_ENDPOINT_NAMES as string[]).includes(form.values.endpoint)
    ? (form.values.endpoint as LookupEndpoint)
    : 'byEmail';
  const templateName = (id: string) =>
    id === '' ? 'Default: Full' : (templates.find((t) => String(t.id) === id)?.name ?? `Template ${id}`);

  async function send(values: NewJobValues) {
    setFailure(null);
    setDone('');
    const upload = file;
    if (!upload) return;
    try {
      const job = await startJob(upload, jobOptionsOf(values));
      onMade(job);
      setDone(`Job ${job.id} is queued: ${upload.name}, ${job.rows.total.toLocaleString('en-US')} rows.`);
      setFile(null);
      form.reset({ ...values, file: '' });
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure({ title: error.status ? errorTitle(error.status) : 'Error', text: error.message });
      }
      throw error;
    }
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby="new-job-heading" sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2" id="new-job-heading" sx={{ mb: 2 }}>
        New Job
      </Typography>
      <FormContainer form={form} onValid={send}>
        <Stack spacing={2}>
          <CsvFileField file={file} onFile={setFile} />
          <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 2 }}>
            <TextInput
              name="endpoint"
              label="Endpoint"
              select
              size="small"
              helperText={`Input columns: ${LOOKUP_ENDPOINTS[endpoint].join(', ')}.`}
              sx={width(200)}
            >
              {LOOKUP_ENDPOINT_NAMES.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextInput>
            <TextInput
              name="template"
              label="Template"
              optional
              select
              size="small"
              helperText="Shapes each identity's record."
              slotProps={{
                inputLabel: { shrink: true },
                select: { displayEmpty: true, renderValue: (v) => templateName(String(v)) },
              }}
              sx={width(240)}
            >
              <MenuItem value="">Default: Full</MenuItem>
              {templates.map((t) => (
                <MenuItem key={t.id} value={String(t.id)}>
                  {t.name} ({t.id})
                </MenuItem>
              ))}
            </TextInput>
            <TextInput
              name="format"
              label="Result Format"
              select
              size="small"
              helperText="Of the result file."
              sx={width(170)}
            >
              {JOB_FORMATS.map((f) => (
                <MenuItem key={f} value={f}>
                  {FORMAT_LABEL[f]}
                </MenuItem>
              ))}
            </TextInput>
            <TextInput
              name="minScore"
              label="Min Score"
              optional
              size="small"
              check={minScoreProblem}
              helperText="0 to 100."
              slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 10 } }}
              sx={width(130)}
            />
            <TextInput
              name="limit"
              label="Limit"
              optional
              size="small"
              check={limitProblem}
              helperText="Identities a row."
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
              sx={width(130)}
            />
          </Stack>
          <Box>
            <Button type="submit" variant="contained" disabled={form.busy}>
              {form.busy ? 'Uploading…' : 'Start Job'}
            </Button>
          </Box>
        </Stack>
      </FormContainer>
      <FormOutcome failure={failure} onDismiss={() => setFailure(null)} done={done} testId="new-job" />
    </Paper>
  );
}
