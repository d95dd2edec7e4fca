/**
 * Bulk Jobs (/jobs; issue 33 item 3, docs/jobs.md): the user's bulk jobs (an administrator's organization's, as the
 * API decides), newest first and loaded a page at a time, with their progress kept current while any runs; New Job
 * uploads a CSV; Cancel after the shared confirmation; Download once a job ended, until its result expires.
 */
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Job } from '@tessera/common/jobs';
import { hasRank } from '@tessera/common/roles';
import type { Template } from '@tessera/common/templates';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { cancelJob, refreshJob } from './job-api';
import { formatCount, STATUS_LABEL } from './job-format';
import { JobsEmpty } from './jobs-empty';
import { JobsTable } from './jobs-table';
import { NewJobForm, type TemplateChoice } from './new-job-form';
import { useJobs } from './use-jobs';

const TEMPLATES_PATH = '/v2/templates';

/** The templates a job may use: published and not deleted, as the playground offers them. */
export function templateChoices(templates: Template[]): TemplateChoice[] {
  return templates
    .filter((t) => t.publishedVersion !== null && !t.deletedAt)
    .map((t) => ({ id: t.id, name: t.name }))
    .sort((a, b) => a.id - b.id);
}

/** The confirmation's sentence: what stops, and what stays. */
export function cancelText(job: Job): string {
  return `Cancel job ${job.id} (${STATUS_LABEL[job.status].toLowerCase()}, ${formatCount(job.rows.done)} of ${formatCount(job.rows.total)} rows done)? No more rows are looked up. The rows done stay billed, and their result can be downloaded.`;
}

export default function JobsPage() {
  // The API shows an administrator every job of their organization (docs/jobs.md).
  const wholeOrganization = useStore((s) => hasRank(s.self.role, 'admin') && s.self.organizationId !== null);
  const list = useJobs();
  const { visible, pager } = usePaging(list.items);
  useFetch(TEMPLATES_PATH);
  const stored = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  const templates = useMemo(() => templateChoices(Object.values(stored ?? {})), [stored]);

  const confirmCancel = (job: Job) =>
    confirmInDialog({
      title: 'Cancel Job',
      text: cancelText(job),
      confirmLabel: 'Cancel Job',
      dismissLabel: 'Keep Running',
      onConfirm: async () => {
        const run = list.begin();
        try {
          list.accept(run, [await cancelJob(job.id)]);
        } catch (error) {
          // It ended meanwhile (409, alerted by the client): show how.
          const now = await refreshJob(job.id);
          if (now) list.accept(list.begin(), [now]);
          throw error;
        }
      },
    });
  const made = (job: Job) => list.accept(list.begin(), [job]);
  const empty = list.load.status === 'loaded' && list.items.length === 0;

  return (
    <>
      <PageHeading>Bulk Jobs</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Look up a CSV file of any length in the background. Each row is answered as the streamed lookup answers it;
        progress shows here while a job runs, and its result can be downloaded once it ends.
        {wholeOrganization && ' As an administrator, you see every job of your organization.'}
      </Typography>
      <NewJobForm templates={templates} onMade={made} />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Jobs
      </Typography>
      {empty ? <JobsEmpty /> : <JobsTable jobs={visible} load={list.load} onCancel={confirmCancel} pager={pager} />}
      {list.load.status === 'loaded' && list.more && (
        <Button sx={{ mt: 1 }} onClick={list.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? 'Loading older jobs…' : 'Load older jobs'}
        </Button>
      )}
    </>
  );
}
