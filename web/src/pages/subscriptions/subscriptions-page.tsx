/**
 * Subscriptions (/subscriptions; issue 33 item 2, decision 0067): the organization's change subscriptions, newest
 * first and loaded a page at a time, with Subscribe and Delete. Any member of an organization may use it, as the API
 * allows, and sees the organization's use of its contract's subscription limit as the list's replies tell it (moved
 * at once by what is made and deleted here). Without an organization there is nothing to show but why.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { hasRank } from '@tessera/common/roles';
import { SUBSCRIPTION_MESSAGES, type Subscription } from '@tessera/common/subscriptions';
import type { Template } from '@tessera/common/templates';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { SubscribeForm, type TemplateChoice } from './subscribe-form';
import { unsubscribe } from './subscription-api';
import { followsOf, limitText } from './subscription-values';
import { SubscriptionsEmpty } from './subscriptions-empty';
import { SubscriptionsTable } from './subscriptions-table';
import { useSubscriptions } from './use-subscriptions';

const TEMPLATES_PATH = '/v2/templates';

/** The templates a subscription may use: published and not deleted, as the playground offers them. */
export function templateChoices(templates: Template[]): TemplateChoice[] {
  return templates
    .filter((t) => t.publishedVersion !== null && !t.deletedAt)
    .map((t) => ({ id: t.id, name: t.name }))
    .sort((a, b) => a.id - b.id);
}

/** The confirmation's sentence: what stops being followed. */
export function deleteText(s: Subscription): string {
  const { label, value } = followsOf(s);
  const by = value === null ? '' : ` (followed by its ${label.toLowerCase()} ${value})`;
  return `Stop following identity ${s.identityId}${by}? No more identity.changed events are sent for this subscription. This cannot be undone.`;
}

function Intro() {
  return (
    <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
      Follow people whose records matter to you: each time a followed record changes, Tessera sends an{' '}
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        identity.changed
      </Box>{' '}
      event to your organization's webhook endpoints. Each event delivered is billed at your contract's price per change
      event.
    </Typography>
  );
}

export default function SubscriptionsPage() {
  const self = useStore((s) => s.self);
  const organizationId = self.organizationId;
  const member = organizationId !== null;
  const admin = hasRank(self.role, 'admin');
  const list = useSubscriptions(member);
  const { visible, pager } = usePaging(list.items);

  // Names for the table: templates, the organization's users, the keys one may see.
  const scope = organizationId === null ? undefined : { organizationId };
  useFetch(member ? TEMPLATES_PATH : null);
  useFetch(member ? RESOURCE_PATHS.users : null, scope);
  useFetch(member ? '/v2/keys' : null);

  const storedTemplates = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  const templates = useMemo(() => templateChoices(Object.values(storedTemplates ?? {})), [storedTemplates]);
  const limit = limitText(list.use);

  if (!member) {
    return (
      <>
        <PageHeading>Subscriptions</PageHeading>
        <Intro />
        <Alert severity="info" data-testid="no-organization" sx={{ maxWidth: 760 }}>
          {SUBSCRIPTION_MESSAGES.organizationRequired}
        </Alert>
      </>
    );
  }

  const templateName = (id: number) => storedTemplates?.[String(id)]?.name ?? `Template ${id}`;
  const confirmDelete = (s: Subscription) =>
    confirmInDialog({
      title: 'Delete Subscription',
      text: deleteText(s),
      confirmLabel: 'Delete',
      onConfirm: async () => {
        const deletedNow = await unsubscribe(s.id);
        list.remove(s.id, deletedNow);
        if (!deletedNow) {
          useStore.getState().addAlert({
            type: 'info',
            title: 'Already deleted',
            text: 'That subscription had been deleted already.',
          });
        }
      },
    });
  const empty = list.load.status === 'loaded' && list.items.length === 0;

  return (
    <>
      <PageHeading>Subscriptions</PageHeading>
      <Intro />
      {limit && (
        <Typography data-testid="subscription-limit" sx={{ mb: 2, fontWeight: 500 }}>
          {limit}
        </Typography>
      )}
      <SubscribeForm
        templates={templates}
        onMade={list.add}
        // At the limit, what the page knows may be out of date (another member subscribed): the server tells.
        onRefused={(status) => {
          if (status === 409) list.recount();
        }}
      />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Your organization's subscriptions
      </Typography>
      {empty ? (
        <SubscriptionsEmpty mayManageWebhooks={admin} />
      ) : (
        <SubscriptionsTable
          subscriptions={visible}
          load={list.load}
          templateName={templateName}
          onDelete={confirmDelete}
          pager={pager}
        />
      )}
      {list.load.status === 'loaded' && !list.complete && (
        <Button sx={{ mt: 1 }} onClick={list.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? 'Loading older subscriptions…' : 'Load older subscriptions'}
        </Button>
      )}
    </>
  );
}
