/**
 * The Subscriptions page (issue 33 item 2) against a fake of the network: the list with names for templates, users
 * and keys; Subscribe with the server's rules before sending and its refusals beside the form (never the error
 * page); Delete through the confirmation; the empty state by rank; the use of the contract's limit for every member,
 * as the list's replies tell it, moved at once by what is made and deleted here, never set back by an older reply;
 * older pages on asking; a failed load in place of the list; nothing asked without an organization.
 */
import { SUBSCRIPTION_LIMITS, SUBSCRIPTION_MESSAGES, type Subscription } from '@tessera/common/subscriptions';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { NOT_SUBSCRIBED } from './subscribe-form';
import SubscriptionsPage from './subscriptions-page';

setupPageTests();

const sub = (id: number, patch: Partial<Subscription> = {}): Subscription => ({
  id,
  organizationId: 3,
  userId: 2,
  keyId: null,
  identityId: 1000 + id,
  input: null,
  templateId: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});
const keyed = (list: Subscription[]) => ({ subscriptions: Object.fromEntries(list.map((s) => [s.id, s])) });
/** A page of the list as GET /v2/subscriptions answers it: with the organization's live count and its limit. */
const listed = (list: Subscription[], live = list.length, limit: number | null = null) => ({
  body: { ...keyed(list), live, limit },
});
const template = (id: number, name: string) => ({ id, name, publishedVersion: 1, deletedAt: null });

function serve(list: Subscription[], live = list.length, limit: number | null = null) {
  network.on('GET /v2/subscriptions', listed(list, live, limit));
  network.on('GET /v2/templates', { body: { templates: { 1: template(1, 'Full'), 12: template(12, 'Emails only') } } });
  network.on('GET /v2/users', {
    body: {
      users: { 2: { id: 2, name: 'Ada Admin', email: 'ada@acme.test' }, 5: { id: 5, name: '', email: 'bo@acme.test' } },
    },
  });
  network.on('GET /v2/keys', { body: { keys: { k1: { id: 'k1', name: 'Orders service', userId: 5 } } } });
}

const open = () => renderPage(<SubscriptionsPage />, '/subscriptions');
const rows = () => screen.queryAllByTestId('subscription-row');
const posts = () => network.calls.filter((c) => c.method === 'POST');
const reads = () => network.calls.filter((c) => c.method === 'GET' && c.path === '/v2/subscriptions');
const line = () => screen.findByTestId('subscription-limit');
const limitLine = (live: number, limit: number) => `${live} of ${limit} subscriptions in use (your contract's limit).`;

/**
 * Holds back the answers to requests whose URL holds `part` until the returned function is called; each is the
 * answer due when it was sent.
 */
function holdAnswers(part: string): () => void {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inner = globalThis.fetch;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const answer = inner(url, init);
    if (url.includes(part)) await gate;
    return answer;
  });
  return release;
}

async function fill(kind: string | null, value: string) {
  if (kind) {
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Subscribe by' }));
    fireEvent.click(await screen.findByRole('option', { name: kind }));
  }
  const field = screen.getAllByRole('textbox')[0]!;
  fireEvent.change(field, { target: { value } });
}

describe('the list', () => {
  it('shows newest first: the identity, what it follows, the template, who made it and how', async () => {
    signIn(user(2, 'user'));
    serve([
      sub(4, { templateId: 12, keyId: 'k1', userId: 5, input: { kind: 'email', value: 'ada@example.com' } }),
      sub(7),
      sub(5, { keyId: 'zz9', templateId: 77 }),
    ]);
    open();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.getAttribute('data-subscription-id'))).toEqual(['7', '5', '4']);
    const [byId, byOtherKey, byEmail] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    await within(byEmail).findByText('Emails only');
    expect(within(byEmail).getByText('E-mail')).toBeTruthy();
    expect(within(byEmail).getByText('ada@example.com')).toBeTruthy();
    expect(within(byEmail).getByRole('link', { name: 'bo@acme.test' }).getAttribute('href')).toBe('/users/5');
    expect(within(byEmail).getByRole('link', { name: 'Orders service' }).getAttribute('href')).toBe('/keys/k1');
    expect(within(byId).getByText('1007')).toBeTruthy();
    expect(within(byId).getByText('Identity ID')).toBeTruthy();
    expect(within(byId).getByText('Full')).toBeTruthy();
    expect(within(byId).getByText('In the console')).toBeTruthy();
    expect(within(byId).getByRole('link', { name: 'Ada Admin' })).toBeTruthy();
    // A key or a template out of the user's sight is named by its id.
    expect(within(byOtherKey).getByText('zz9')).toBeTruthy();
    expect(within(byOtherKey).getByText('Template 77')).toBeTruthy();
    // A member sees the use of the limit as the list's reply tells it; no contract is read for it.
    expect((await line()).textContent).toBe('3 subscriptions in use; your contract sets no limit.');
    expect(network.calls.some((c) => c.path === '/v2/contracts')).toBe(false);
  });

  it('shows a failed load in place of the list, and Retry loads it', async () => {
    signIn(user(2, 'user'));
    serve([]);
    network.on('GET /v2/subscriptions', { status: 500, body: { error: 'The database is away.' } });
    open();
    const failed = await screen.findByTestId('load-error');
    expect(within(failed).getByText('The subscriptions could not be loaded.')).toBeTruthy();
    expect(screen.queryByTestId('subscriptions-empty')).toBeNull();
    expect(screen.queryByTestId('subscription-limit')).toBeNull();
    network.on('GET /v2/subscriptions', listed([sub(1)], 1, 5));
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByTestId('load-error')).toBeNull();
    expect((await line()).textContent).toBe("1 of 5 subscriptions in use (your contract's limit).");
  });

  it('loads older pages before the oldest shown, after a full page only, and takes their figures', async () => {
    signIn(user(2, 'user'));
    const first = Array.from({ length: SUBSCRIPTION_LIMITS.page }, (_, i) => sub(300 - i));
    serve(first, 102, 500);
    const urls: string[] = [];
    const inner = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      urls.push(url);
      return inner(url, init);
    });
    open();
    const more = await screen.findByRole('button', { name: 'Load older subscriptions' });
    expect((await line()).textContent).toBe(limitLine(102, 500));
    // Every page tells the organization's figures as they are when it is read.
    network.on('GET /v2/subscriptions', listed([sub(150), sub(149)], 103, 600));
    fireEvent.click(more);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load older subscriptions' })).toBeNull());
    expect((await line()).textContent).toBe(limitLine(103, 600));
    expect(urls.filter((u) => u.startsWith('/v2/subscriptions'))).toEqual([
      '/v2/subscriptions',
      '/v2/subscriptions?before=201',
    ]);
  });
});

describe('Subscribe', () => {
  it('sends one target and the template chosen; the new one shows at the top and counts at once', async () => {
    signIn(user(2, 'user'));
    serve([sub(7)], 1, 10);
    const made = sub(8, { identityId: 55, templateId: 12, input: { kind: 'email', value: 'ada@example.com' } });
    network.on('POST /v2/subscriptions', { status: 201, body: keyed([made]) });
    open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect((await line()).textContent).toBe(limitLine(1, 10));
    await fill(null, ' Ada@Example.com ');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Template' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Emails only (12)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(posts().map((c) => c.body)).toEqual([{ email: 'Ada@Example.com', template: 12 }]);
    expect(rows()[0]?.getAttribute('data-subscription-id')).toBe('8');
    expect(screen.getByTestId('subscribe-done').getAttribute('role')).toBe('status');
    expect(screen.getByTestId('subscribe-done').textContent).toBe(
      'Subscribed to identity 55, by its e-mail ada@example.com.',
    );
    expect((screen.getAllByRole('textbox')[0] as HTMLInputElement).value).toBe('');
    // The line counts it without reading the list again.
    expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(2, 10));
    expect(reads()).toHaveLength(1);
  });

  it("checks the value by the server's rule before sending", async () => {
    signIn(user(2, 'user'));
    serve([]);
    open();
    await fill(null, 'ada@');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await screen.findByText(SUBSCRIPTION_MESSAGES.input('email'), { selector: 'p' });
    await fill('Identity ID', '0');
    await screen.findByText(SUBSCRIPTION_MESSAGES.identityId, { selector: 'p' });
    expect(posts()).toEqual([]);
    await fill(null, '42');
    network.on('POST /v2/subscriptions', { status: 201, body: keyed([sub(9, { identityId: 42 })]) });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(posts().map((c) => c.body)).toEqual([{ identityId: 42 }]));
  });

  it.each([
    [404, SUBSCRIPTION_MESSAGES.unresolved('email')],
    [409, SUBSCRIPTION_MESSAGES.limit(2)],
    [402, "Your organization's contract is suspended. Please contact us."],
    [400, SUBSCRIPTION_MESSAGES.input('email')],
    [429, 'Too many requests: please wait 12 seconds.'],
  ])('shows a %i beside the form, naming the problem, and stays on the page', async (status, message) => {
    signIn(user(2, 'user'));
    serve([sub(7)], 1, 2);
    network.on('POST /v2/subscriptions', { status, body: { error: message } });
    open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await fill(null, 'nobody@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    const alert = await screen.findByTestId('subscribe-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(within(alert).getByText(NOT_SUBSCRIBED)).toBeTruthy();
    expect(within(alert).getByTestId('subscribe-error-text').textContent).toBe(message);
    expect(network.went).toEqual([]);
    expect(useStore.getState().alerts).toEqual([]);
    expect(rows()).toHaveLength(1);
    expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(1, 2));
    // The next try starts without it.
    network.on('POST /v2/subscriptions', { status: 201, body: keyed([sub(8)]) });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.queryByTestId('subscribe-error')).toBeNull());
  });

  it("at the limit (a 409), reads the use again: another member's subscription shows", async () => {
    signIn(user(2, 'user'));
    serve([sub(7)], 1, 2);
    open();
    expect((await line()).textContent).toBe(limitLine(1, 2));
    network.on('POST /v2/subscriptions', { status: 409, body: { error: SUBSCRIPTION_MESSAGES.limit(2) } });
    network.on('GET /v2/subscriptions', listed([sub(9, { userId: 5 }), sub(7)], 2, 2));
    await fill(null, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await screen.findByTestId('subscribe-error');
    await waitFor(() => expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(2, 2)));
    expect(reads()).toHaveLength(2);
    // Only the use is read again: the list stays as it was.
    expect(rows()).toHaveLength(1);
  });
});

describe('Delete', () => {
  it('asks first, and Delete takes it off the list and off the count at once', async () => {
    signIn(user(2, 'user'));
    serve([sub(7), sub(6, { input: { kind: 'phone', value: '+12125550100' } })]);
    network.on('DELETE /v2/subscriptions/6', { body: { subscriptions: { 6: { id: 6, deletedAt: 'x' } } } });
    open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect((await line()).textContent).toBe('2 subscriptions in use; your contract sets no limit.');
    fireEvent.click(screen.getByRole('button', { name: 'Delete the subscription to identity 1006' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Subscription' });
    expect(within(dialog).getByTestId('confirm-text').textContent).toMatch(
      /^Stop following identity 1006 \(followed by its phone \+12125550100\)\?/,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(network.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/v2/subscriptions/6']);
    expect(screen.getByTestId('subscription-limit').textContent).toBe(
      '1 subscription in use; your contract sets no limit.',
    );
    expect(reads()).toHaveLength(1);
  });

  it('Cancel keeps it; one deleted meanwhile leaves the list with a notice, not the error page', async () => {
    signIn(user(2, 'user'));
    serve([sub(7)], 1, 4);
    network.on('DELETE /v2/subscriptions/7', { status: 404, body: { error: SUBSCRIPTION_MESSAGES.notFound } });
    open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the subscription to identity 1007' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rows()).toHaveLength(1);
    expect(network.calls.some((c) => c.method === 'DELETE')).toBe(false);
    // Whoever deleted it may also have subscribed meanwhile: the count is read again, not guessed.
    network.on('GET /v2/subscriptions', listed([sub(9)], 1, 4));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the subscription to identity 1007' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(0));
    expect(network.went).toEqual([]);
    expect(useStore.getState().alerts.map((a) => a.title)).toEqual(['Already deleted']);
    await waitFor(() => expect(reads()).toHaveLength(2));
    expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(1, 4));
  });
});

describe('the empty state and the limit', () => {
  it('explains subscriptions; administrators get the way to the webhook endpoints', async () => {
    signIn(user(2, 'admin'));
    serve([], 0, 25);
    open();
    const empty = await screen.findByTestId('subscriptions-empty');
    expect(within(empty).getAllByText('identity.changed')).toHaveLength(2);
    expect(within(empty).getByRole('link', { name: 'Webhooks page' }).getAttribute('href')).toBe('/webhooks');
    expect(screen.queryByRole('table')).toBeNull();
    expect((await line()).textContent).toBe(limitLine(0, 25));
    expect(network.calls.some((c) => c.path === '/v2/contracts')).toBe(false);
  });

  it('members are told who sets the endpoints up, with no link', async () => {
    signIn(user(2, 'user'));
    serve([]);
    open();
    const empty = await screen.findByTestId('subscriptions-empty');
    expect(within(empty).queryByRole('link')).toBeNull();
    expect(within(empty).getByText(/administrators set up the webhook endpoints/)).toBeTruthy();
  });

  it("tells the organization's count, not the rows loaded, and moves it with what is made and deleted", async () => {
    signIn(user(2, 'user'));
    const first = Array.from({ length: SUBSCRIPTION_LIMITS.page }, (_, i) => sub(300 - i));
    serve(first, 240, 500);
    network.on('POST /v2/subscriptions', { status: 201, body: keyed([sub(301)]) });
    network.on('DELETE /v2/subscriptions/300', { body: { subscriptions: { 300: { id: 300, deletedAt: 'x' } } } });
    open();
    expect((await line()).textContent).toBe(limitLine(240, 500));
    await fill(null, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(241, 500)));
    fireEvent.click(screen.getByRole('button', { name: 'Delete the subscription to identity 1300' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(240, 500)));
    expect(reads()).toHaveLength(1);
  });

  it('a reply to a read sent before a Subscribe does not undo its count', async () => {
    signIn(user(2, 'user'));
    const first = Array.from({ length: SUBSCRIPTION_LIMITS.page }, (_, i) => sub(300 - i));
    serve(first, 300, 500);
    network.on('POST /v2/subscriptions', { status: 201, body: keyed([sub(301)]) });
    open();
    const more = await screen.findByRole('button', { name: 'Load older subscriptions' });
    const release = holdAnswers('before=');
    // The older page is read before the Subscribe is answered: its figures may or may not count it.
    network.on('GET /v2/subscriptions', listed([sub(150)], 300, 500));
    fireEvent.click(more);
    await waitFor(() => expect(reads()).toHaveLength(2));
    await fill(null, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(301, 500)));
    release();
    await waitFor(() => expect(screen.queryByRole('button', { name: /older subscriptions/ })).toBeNull());
    expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(301, 500));
  });

  it('a reply to an older read answered last does not overwrite a newer one', async () => {
    signIn(user(2, 'user'));
    const first = Array.from({ length: SUBSCRIPTION_LIMITS.page }, (_, i) => sub(300 - i));
    serve(first, 300, 500);
    open();
    const more = await screen.findByRole('button', { name: 'Load older subscriptions' });
    const release = holdAnswers('before=');
    network.on('GET /v2/subscriptions', listed([sub(150)], 300, 500));
    fireEvent.click(more);
    await waitFor(() => expect(reads()).toHaveLength(2));
    // Meanwhile a 409 has the use read again, and the newer read is answered first.
    network.on('POST /v2/subscriptions', { status: 409, body: { error: SUBSCRIPTION_MESSAGES.limit(400) } });
    network.on('GET /v2/subscriptions', listed(first, 400, 400));
    await fill(null, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(400, 400)));
    release();
    await waitFor(() => expect(screen.queryByRole('button', { name: /older subscriptions/ })).toBeNull());
    expect(screen.getByTestId('subscription-limit').textContent).toBe(limitLine(400, 400));
  });
});

describe('without an organization', () => {
  it('says subscriptions belong to one and asks the server nothing', async () => {
    signIn(user(1, 'root', null));
    open();
    expect((await screen.findByTestId('no-organization')).textContent).toBe(SUBSCRIPTION_MESSAGES.organizationRequired);
    expect(network.calls).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });
});
