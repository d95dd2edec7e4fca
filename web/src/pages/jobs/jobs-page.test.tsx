import type { Job } from '@tessera/common/jobs';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import JobsPage from './jobs-page';
import { JOB_FORM_MESSAGES } from './new-job-values';
import { REFRESH_MS } from './use-jobs';

setupPageTests();

const ID = { running: 'job_000000000000000000000003', done: 'job_000000000000000000000002' };

const job = (id: string, extra: Partial<Job> = {}): Job => ({
  id,
  status: 'running',
  endpoint: 'byEmail',
  format: 'csv',
  options: {},
  rows: { total: 2500, done: 1000, matched: 120, failed: 3 },
  identities: 130,
  cost: '0.130000',
  rowsPerSecond: 250,
  etaSeconds: 6,
  error: null,
  createdAt: '2026-11-28T14:00:00.000Z',
  startedAt: '2026-11-28T14:00:01.000Z',
  finishedAt: null,
  expiresAt: null,
  resultUrl: null,
  ...extra,
});

const ended = (id: string, extra: Partial<Job> = {}) =>
  job(id, {
    status: 'completed',
    rows: { total: 2500, done: 2500, matched: 300, failed: 4 },
    etaSeconds: null,
    createdAt: '2026-11-28T13:00:00.000Z',
    finishedAt: '2026-11-28T13:01:00.000Z',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    resultUrl: `/v2/jobs/${id}/result`,
    ...extra,
  });

/** Lets the fake network's replies and React's updates through (setImmediate is not faked). */
const flush = async () => {
  for (let i = 0; i < 5; i++) await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
};

const listLoads = () => network.calls.filter((c) => c.method === 'GET' && c.path === '/v2/jobs').length;
const row = (id: string) => screen.getAllByTestId('job-row').find((r) => r.dataset.jobId === id)!;

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

async function open(jobs: Job[], next: string | null = null, role: 'user' | 'admin' = 'user') {
  signIn(user(1, role));
  network.on('GET /v2/templates', { body: { templates: {} } });
  network.on('GET /v2/jobs', { body: { jobs, next } });
  renderPage(<JobsPage />, '/jobs');
  await flush();
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('the list', () => {
  it('shows each job’s status in words, its progress as a labelled bar, its figures, and what it allows', async () => {
    const expired = ended('job_000000000000000000000001', {
      status: 'failed',
      error: 'The template was deleted.',
      createdAt: '2026-11-28T12:00:00.000Z',
      expiresAt: '2026-01-01T00:00:00.000Z',
    });
    await open([job(ID.running), ended(ID.done), expired]);
    expect(screen.getAllByTestId('job-row').map((r) => r.dataset.jobId)).toEqual([ID.running, ID.done, expired.id]);

    const running = within(row(ID.running));
    expect(running.getByTestId('job-status').textContent).toBe('Running');
    const bar = running.getByRole('progressbar', { name: `Rows done of job ${ID.running}` });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(bar.getAttribute('aria-valuetext')).toBe('1,000 of 2,500 rows');
    expect(running.getByTestId('job-matched').textContent).toBe('120');
    expect(running.getByTestId('job-failed').textContent).toBe('3');
    expect(running.getByTestId('job-rate').textContent).toBe('250');
    expect(running.getByTestId('job-rows').textContent).toBe('1,000 / 2,500');
    expect(running.getByTestId('job-eta').textContent).toBe('less than a minute');
    expect(running.getByTestId('job-cost').textContent).toBe('$0.13');
    expect(running.getByRole('button', { name: `Cancel job ${ID.running}` })).toBeTruthy();

    const done = within(row(ID.done));
    expect(done.getByTestId('job-status').textContent).toBe('Completed');
    expect(done.getByTestId('job-eta').textContent).toBe('—');
    const download = done.getByRole('link', { name: `Download the result of job ${ID.done}` });
    expect(download.getAttribute('href')).toBe(`/v2/jobs/${ID.done}/result`);
    expect(done.queryByRole('button', { name: /^Cancel/ })).toBeNull();

    const old = within(row(expired.id));
    expect(old.getByTestId('job-status').textContent).toBe('Failed');
    expect(old.getByTestId('job-error').textContent).toBe('The template was deleted.');
    expect(old.getByTestId('job-expired').textContent).toBe('Expired');
    expect(old.queryByRole('link', { name: /^Download/ })).toBeNull();
  });

  it('explains bulk jobs when there is none, with the way to the API reference', async () => {
    await open([]);
    const empty = screen.getByTestId('jobs-empty');
    expect(within(empty).getByText(/looks up every row of a CSV file in the background/)).toBeTruthy();
    expect(within(empty).getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(/you see every job of your organization/)).toBeNull();
  });

  it('tells an administrator they see every job of their organization', async () => {
    await open([], null, 'admin');
    expect(screen.getByText(/you see every job of your organization/)).toBeTruthy();
  });

  it('loads older jobs on asking, with the API’s next', async () => {
    await open([ended(ID.done)], ID.done);
    const older = ended('job_000000000000000000000001', { createdAt: '2026-11-27T00:00:00.000Z' });
    network.on('GET /v2/jobs', { body: { jobs: [older], next: null } });
    fireEvent.click(screen.getByRole('button', { name: 'Load older jobs' }));
    await flush();
    expect(screen.getAllByTestId('job-row').map((r) => r.dataset.jobId)).toEqual([ID.done, older.id]);
    expect(screen.queryByRole('button', { name: 'Load older jobs' })).toBeNull();
  });

  it('shows a failed load in place of the list, with a Retry', async () => {
    signIn(user(1, 'user'));
    network.on('GET /v2/templates', { body: { templates: {} } });
    network.on('GET /v2/jobs', { status: 500, body: { error: 'Database unavailable.' } });
    renderPage(<JobsPage />, '/jobs');
    await flush();
    expect(within(screen.getByTestId('load-error')).getByText('Database unavailable.')).toBeTruthy();
    network.on('GET /v2/jobs', { body: { jobs: [ended(ID.done)], next: null } });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await flush();
    expect(screen.queryByTestId('load-error')).toBeNull();
    expect(row(ID.done)).toBeTruthy();
  });
});

describe('live progress', () => {
  it('reads the jobs again every 2 s while one runs, not while the page is hidden, and stops once none runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await open([job(ID.running), ended(ID.done)]);
    expect(listLoads()).toBe(1);

    network.on('GET /v2/jobs', {
      body: { jobs: [job(ID.running, { rows: { total: 2500, done: 2000, matched: 250, failed: 3 } })], next: null },
    });
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS));
    await flush();
    expect(listLoads()).toBe(2);
    expect(within(row(ID.running)).getByTestId('job-rows').textContent).toBe('2,000 / 2,500');
    expect(within(row(ID.running)).getByTestId('job-matched').textContent).toBe('250');

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS * 3));
    await flush();
    expect(listLoads()).toBe(2);

    const finished = ended(ID.running, { createdAt: '2026-11-28T14:00:00.000Z' });
    network.on('GET /v2/jobs', { body: { jobs: [finished], next: null } });
    setVisibility('visible'); // reads at once on coming back
    await flush();
    expect(listLoads()).toBe(3);
    expect(within(row(ID.running)).getByTestId('job-status').textContent).toBe('Completed');
    expect(within(row(ID.running)).getByRole('link', { name: /^Download/ })).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS * 3));
    await flush();
    expect(listLoads()).toBe(3);
  });

  it('reads nothing again when no job runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await open([ended(ID.done)]);
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS * 3));
    await flush();
    expect(listLoads()).toBe(1);
  });
});

describe('cancel', () => {
  it('asks first, then cancels and shows the job cancelled with its result to download', async () => {
    await open([job(ID.running)]);
    fireEvent.click(screen.getByRole('button', { name: `Cancel job ${ID.running}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Job' });
    expect(within(dialog).getByTestId('confirm-text').textContent).toContain('1,000 of 2,500 rows done');
    const cancelled = ended(ID.running, {
      status: 'cancelled',
      rows: { total: 2500, done: 1000, matched: 120, failed: 3 },
    });
    network.on(`POST /v2/jobs/${ID.running}/cancel`, { body: { job: cancelled } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Job' }));
    await flush();
    expect(network.calls.some((c) => c.method === 'POST' && c.path === `/v2/jobs/${ID.running}/cancel`)).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row(ID.running)).getByTestId('job-status').textContent).toBe('Cancelled');
    expect(within(row(ID.running)).getByRole('link', { name: /^Download/ })).toBeTruthy();
  });

  it('sends nothing when the confirmation is dismissed', async () => {
    await open([job(ID.running)]);
    fireEvent.click(screen.getByRole('button', { name: `Cancel job ${ID.running}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Job' });
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Running' }));
    await flush();
    expect(network.calls.some((c) => c.path.endsWith('/cancel'))).toBe(false);
    expect(within(row(ID.running)).getByTestId('job-status').textContent).toBe('Running');
  });
});

describe('New Job', () => {
  const choose = (name = 'customers.csv') =>
    fireEvent.change(screen.getByTestId('job-file'), {
      target: { files: [new File(['email\nada@example.com\n'], name, { type: 'text/csv' })] },
    });
  const start = () => fireEvent.click(screen.getByRole('button', { name: 'Start Job' }));

  it('asks for a file before sending anything', async () => {
    await open([]);
    start();
    await flush();
    expect(screen.getByTestId('validation-banner').textContent).toContain(JOB_FORM_MESSAGES.file);
    expect(network.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('uploads the file as text/csv and puts the new job at the top', async () => {
    await open([ended(ID.done)]);
    const made = job('job_000000000000000000000009', { status: 'queued', createdAt: new Date().toISOString() });
    network.on('POST /v2/jobs', { status: 202, body: { job: made } });
    choose();
    expect(screen.getByTestId('chosen-file').textContent).toMatch(/^customers\.csv, /);
    start();
    await flush();
    const post = network.calls.find((c) => c.method === 'POST' && c.path === '/v2/jobs');
    expect(network.headersOf(post)['content-type']).toBe('text/csv');
    expect(network.headersOf(post)['x-requested-with']).toBe('XMLHttpRequest');
    expect(screen.getAllByTestId('job-row').map((r) => r.dataset.jobId)).toEqual([made.id, ID.done]);
    expect(screen.getByTestId('new-job-done').textContent).toContain(made.id);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the server’s refusal beside the form, naming the problem', async () => {
    await open([]);
    const refusal = 'The CSV header names no input of byEmail: give a column named email.';
    network.on('POST /v2/jobs', { status: 400, body: { error: refusal, code: 'bad_request' } });
    choose('names.csv');
    start();
    await flush();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Bad Request');
    expect(alert.textContent).toContain(refusal);
    expect(screen.queryAllByTestId('job-row')).toEqual([]);

    network.on('POST /v2/jobs', { status: 402, body: { error: 'Your organization has no contract in force.' } });
    start();
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('Your organization has no contract in force.');
  });
});
