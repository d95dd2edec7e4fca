/**
 * Bulk jobs in the console (issue 33 item 3, docs/jobs.md) in Chromium against the real server, its runner on and
 * chunks of 500 rows: a member of an organization with a contract uploads a CSV through the New Job form, sees the
 * job appear and run to completed (rows done = total, the matched and failed counts of the rows sent), and downloads
 * a result identical to what the streamed PUT answers for the same CSV; a CSV whose header names no input, and a
 * member of an organization without a contract, get the server's message in the alert beside the form; a long job
 * shows its progress while it runs and is cancelled through the confirmation, keeping the rows it answered. The page
 * passes WCAG 2.1 AA light and dark at 1280 and 390 px, the open confirmation and the refusal included; screenshots
 * go to SCREENSHOT_DIR (/tmp/shots-jobs by default).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Job } from '@tessera/common/jobs';
import type { LookupSamples } from '@tessera/common/samples';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, openSettled, sidewaysScroll, trackRequests } from './support/page-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-jobs';
mkdirSync(SHOTS, { recursive: true });

const ada = seedUser('user', { name: 'Ada Bulk' });
const bob = seedUser('user', { name: 'Bob Nocontract' });
const env = useServerAndBrowser({
  users: [ada, bob],
  env: { SEED_IDENTITIES: '200', JOB_CHUNK_ROWS: '500' },
});
const openAs = usePages(env);
const DAY = 86_400_000;

/** Rows of a job that runs long enough to be seen running and cancelled. */
const LONG_ROWS = 200_000;

let sampleEmail = '';
beforeAll(async () => {
  // Ada's organization has a contract in force; Bob's has none, so it may not call (402).
  const root = await openAs('root');
  const made = async (name: string) => {
    const res = await callApi(root, 'POST', '/v2/organizations', { name });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Number(Object.keys((res.body as { organizations: object }).organizations)[0]);
  };
  const withContract = await made(`Bulk ${process.pid}`);
  const without = await made(`No contract ${process.pid}`);
  const contract = await callApi(root, 'POST', '/v2/contracts', {
    organizationId: withContract,
    startsAt: new Date(Date.now() - DAY).toISOString(),
    endsAt: new Date(Date.now() + 365 * DAY).toISOString(),
    pricePerRequest: 0.001,
    pricePerIdentity: 0.0001,
  });
  expect(contract.status, JSON.stringify(contract.body)).toBe(201);
  for (const [user, organizationId] of [
    [ada, withContract],
    [bob, without],
  ] as const) {
    const id = env.server.users.find((u) => u.email === user.email)!.id;
    const moved = await callApi(root, 'PUT', `/v2/users/${id}`, { organizationId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
  const samples = await callApi(root, 'GET', '/v2/samples?mode=live');
  sampleEmail = (samples.body as { samples: LookupSamples }).samples.email;
  expect(sampleEmail).toContain('@');
  await root.context().close();
});

/** A byEmail CSV of `rows` rows: every 4th the sample person's address, every 100th not an address, the rest nobody's. */
function emailCsv(rows: number): { csv: string; matched: number; failed: number } {
  const lines = ['ref,email'];
  let matched = 0;
  let failed = 0;
  for (let i = 0; i < rows; i++) {
    if (i % 100 === 99) {
      lines.push(`r${i},not an address`);
      failed++;
    } else if (i % 4 === 0) {
      lines.push(`r${i},${sampleEmail}`);
      matched++;
    } else lines.push(`r${i},nobody-${i}@nowhere.example`);
  }
  return { csv: `${lines.join('\n')}\n`, matched, failed };
}

/**
 * A long CSV: every row the sample person's address, whose record is looked up and written out for each, so the job
 * runs long enough to be watched and cancelled.
 */
function longCsv(rows: number, email: string): string {
  const lines = ['ref,email'];
  for (let i = 0; i < rows; i++) lines.push(`r${i},${email}`);
  return `${lines.join('\n')}\n`;
}

/** A raw call from the page with its session, the body as it is: status, content type and text. */
function rawCall(page: Page, method: string, path: string, body?: string, type = 'text/csv') {
  return page.evaluate(
    async ({ method, path, body, type }) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'x-requested-with': 'XMLHttpRequest', ...(body === undefined ? {} : { 'content-type': type }) },
        body,
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    },
    { method, path, body, type },
  );
}

/** Starts a long job over the API, as the page's user; the job. */
async function startLongJob(page: Page): Promise<Job> {
  const made = await rawCall(page, 'POST', '/v2/jobs?endpoint=byEmail', longCsv(LONG_ROWS, sampleEmail));
  expect(made.status, made.text).toBe(202);
  return (JSON.parse(made.text) as { job: Job }).job;
}

const jobRow = (page: Page, id: string) => page.locator(`[data-testid="job-row"][data-job-id="${id}"]`);
const cellText = async (page: Page, id: string, testId: string) =>
  ((await jobRow(page, id).getByTestId(testId).textContent()) ?? '').trim();
const count = (n: number) => n.toLocaleString('en-US');

/** Uploads `csv` through the New Job form as `name`. */
async function uploadOnPage(page: Page, csv: string, name: string) {
  await page.getByTestId('job-file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByTestId('chosen-file').getByText(name).waitFor();
  await page.getByRole('button', { name: 'Start Job' }).click();
}

/** The id of the job the form just made, from its status line. */
async function madeJobId(page: Page): Promise<string> {
  const status = page.getByTestId('new-job-done');
  await status.getByText(/^Job job_[0-9a-f]{24} is queued/).waitFor();
  return /job_[0-9a-f]{24}/.exec((await status.textContent()) ?? '')![0];
}

describe('bulk jobs in the console (issue 33 item 3)', () => {
  it('uploads a CSV through the form; the job appears at the top, completes, and its result downloads', async () => {
    const page = await openAs(ada);
    await page.goto(`${env.server.url}/`);
    await page.getByTestId('nav-drawer').getByRole('link', { name: 'Bulk Jobs' }).click();
    await page.getByRole('heading', { name: 'Bulk Jobs', level: 1 }).waitFor();
    await page.getByTestId('jobs-empty').waitFor();

    const { csv, matched, failed } = emailCsv(1200);
    await uploadOnPage(page, csv, 'customers.csv');
    const id = await madeJobId(page);
    // At the top of the list, at once, then kept current until it ends.
    expect(await page.getByTestId('job-row').first().getAttribute('data-job-id')).toBe(id);
    await jobRow(page, id).and(page.locator('[data-status="completed"]')).waitFor({ timeout: 60_000 });
    expect(await cellText(page, id, 'job-status')).toBe('Completed');
    expect(await cellText(page, id, 'job-rows')).toBe('1,200 / 1,200');
    const bar = jobRow(page, id).getByRole('progressbar', { name: `Rows done of job ${id}` });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    expect(await bar.getAttribute('aria-valuetext')).toBe('1,200 of 1,200 rows');
    expect(await cellText(page, id, 'job-matched')).toBe(count(matched));
    expect(await cellText(page, id, 'job-failed')).toBe(count(failed));
    expect(await cellText(page, id, 'job-rate')).toMatch(/^[\d,.]+$/);
    expect(await cellText(page, id, 'job-cost')).toMatch(/^\$\d+\.\d{2,6}$/);
    const api = (await callApi(page, 'GET', `/v2/jobs/${id}`)).body as { job: Job };
    expect(api.job.rows).toEqual({ total: 1200, done: 1200, matched, failed });

    // The download is what the streamed PUT answers for the same CSV, byte for byte.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      jobRow(page, id)
        .getByRole('link', { name: `Download the result of job ${id}` })
        .click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${id}.csv`);
    const result = readFileSync((await file.path())!, 'utf8');
    const put = await rawCall(page, 'PUT', '/v2/identities/byEmail', csv);
    expect(put.status).toBe(200);
    expect(result).toBe(put.text);
    // And it reads as the rows sent: the header, then every row's lines, a score where the person was found.
    const lines = result.split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toMatch(/^ref,email,score,matchedOn,.*,error$/);
    const refs = new Map<string, string[]>();
    for (const line of lines.slice(1)) refs.set(line.split(',')[0]!, [...(refs.get(line.split(',')[0]!) ?? []), line]);
    expect(refs.size).toBe(1200);
    const found = [...refs.values()].filter((rows) => rows.some((l) => l.split(',')[2] !== ''));
    expect(found).toHaveLength(matched);
    for (const line of refs.get('r99')!) expect(line.endsWith(',')).toBe(false);
  });

  it('shows the server’s refusal of a CSV whose header names no input, in the alert beside the form', async () => {
    const page = await openAs(ada);
    await openSettled(page, `${env.server.url}/jobs`, trackRequests(page));
    const before = await page.getByTestId('job-row').count();
    expect(before).toBeGreaterThan(0);
    const csv = 'name,city\nAda,Paris\n';
    await uploadOnPage(page, csv, 'names.csv');
    const alert = page.getByRole('alert').filter({ hasText: 'Bad Request' });
    await alert.waitFor();
    const refusal = await rawCall(page, 'POST', '/v2/jobs?endpoint=byEmail', csv);
    expect(refusal.status).toBe(400);
    const message = (JSON.parse(refusal.text) as { error: string }).error;
    expect(message).toMatch(/names no input of byEmail/);
    expect(await alert.textContent()).toContain(message);
    expect(await page.getByTestId('job-row').count()).toBe(before);
  });

  it('shows a member of an organization without a contract why they may not start a job', async () => {
    const page = await openAs(bob);
    await page.goto(`${env.server.url}/jobs`);
    await page.getByTestId('jobs-empty').waitFor();
    const csv = `email\n${sampleEmail}\n`;
    await uploadOnPage(page, csv, 'one.csv');
    const alert = page.getByRole('alert').filter({ hasText: 'Payment Error' });
    await alert.waitFor();
    const refusal = await rawCall(page, 'POST', '/v2/jobs?endpoint=byEmail', csv);
    expect(refusal.status).toBe(402);
    expect(await alert.textContent()).toContain((JSON.parse(refusal.text) as { error: string }).error);
    expect(await page.getByTestId('job-row').count()).toBe(0);
  });

  it('shows a long job’s progress while it runs, and cancels it through the confirmation', async () => {
    const page = await openAs(ada);
    await page.goto(`${env.server.url}/jobs`);
    await uploadOnPage(page, longCsv(LONG_ROWS, sampleEmail), 'long.csv');
    const id = await madeJobId(page);
    const row = jobRow(page, id);
    // Running, with rows done moving (the page reads it again every 2 s), a rate and a time left.
    await row.and(page.locator('[data-status="running"]')).waitFor();
    await expect.poll(() => cellText(page, id, 'job-rate')).toMatch(/^[\d,.]+$/);
    expect(await cellText(page, id, 'job-eta')).toMatch(/^(less than a minute|about \d+ (min|h|days)( \d+ min)?)$/);
    const early = await cellText(page, id, 'job-rows');
    await expect.poll(() => cellText(page, id, 'job-rows')).not.toBe(early);

    await row.getByRole('button', { name: `Cancel job ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Job' });
    await dialog.getByTestId('confirm-text').getByText(`Cancel job ${id}`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel Job' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.and(page.locator('[data-status="cancelled"]')).waitFor();
    expect(await cellText(page, id, 'job-status')).toBe('Cancelled');
    expect(await row.getByRole('button', { name: /^Cancel/ }).count()).toBe(0);

    const { job } = (await callApi(page, 'GET', `/v2/jobs/${id}`)).body as { job: Job };
    expect(job.status).toBe('cancelled');
    expect(job.rows.done).toBeLessThan(LONG_ROWS);
    expect(await cellText(page, id, 'job-rows')).toBe(`${count(job.rows.done)} / ${count(LONG_ROWS)}`);
    // The rows answered stay downloadable: those rows, in order, each with the person found, after the header.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: `Download the result of job ${id}` }).click(),
    ]);
    const lines = readFileSync((await file.path())!, 'utf8')
      .split('\r\n')
      .filter((l) => l !== '')
      .slice(1);
    const refs = [...new Set(lines.map((l) => l.split(',')[0]))];
    expect(refs).toEqual(Array.from({ length: job.rows.done }, (_, i) => `r${i}`));
    expect(lines.every((l) => l.split(',')[2] !== '')).toBe(true);
  });
});

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 390 },
  { theme: 'dark', width: 390 },
] as const;

/** axe's WCAG 2.1 AA violations and any sideways scroll of the page as it is now; a screenshot of it. */
async function check(page: Page, name: string, view: (typeof VIEWS)[number]): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}-${view.theme}-${view.width}.png`, fullPage: true });
  expect(
    [...(await axeViolations(page)), ...(await sidewaysScroll(page))],
    `${name} ${view.theme} ${view.width}`,
  ).toEqual([]);
}

describe('WCAG 2.1 AA and screenshots', () => {
  describe.each(VIEWS)('in the $theme theme at $width px', (view) => {
    it('the list with a running job, the open confirmation, the refusal, and the empty page', async () => {
      const page = await openAs(ada, { colorScheme: view.theme, width: view.width, height: 900 });
      const pending = trackRequests(page);
      await page.goto(`${env.server.url}/jobs`);
      const job = await startLongJob(page);
      await openSettled(page, `${env.server.url}/jobs`, pending);
      const row = jobRow(page, job.id);
      await row.and(page.locator('[data-status="running"]')).waitFor();
      await expect.poll(() => cellText(page, job.id, 'job-rate')).toMatch(/^[\d,.]+$/);
      await check(page, 'list', view);

      await row.getByRole('button', { name: `Cancel job ${job.id}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel Job' });
      await dialog.getByTestId('confirm-text').waitFor();
      await check(page, 'cancel', view);
      await dialog.getByRole('button', { name: 'Cancel Job' }).click();
      await row.and(page.locator('[data-status="cancelled"]')).waitFor();

      await uploadOnPage(page, 'name,city\nAda,Paris\n', 'names.csv');
      await page.getByRole('alert').filter({ hasText: 'Bad Request' }).waitFor();
      await check(page, 'refused', view);

      const empty = await openAs(bob, { colorScheme: view.theme, width: view.width, height: 900 });
      await openSettled(empty, `${env.server.url}/jobs`, trackRequests(empty));
      await empty.getByTestId('jobs-empty').waitFor();
      await check(empty, 'empty', view);
    });
  });
});
