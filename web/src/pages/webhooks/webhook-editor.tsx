/**
 * Make an endpoint (/webhooks/add) or change one (/webhooks/edit/{id}): URL, description, events and whether it is
 * on; super and root choose the organization of a new one. The editor checks the URL's shape by the server's own
 * rule (webhookUrlProblem, common/src/webhooks.ts); where the server refuses (an address no webhook may reach, a
 * name that does not resolve) its message lands on the field. A new endpoint's signing secret is shown once;
 * closing it goes to the endpoint's page.
 */
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canManageOrganizations } from '@tessera/common/roles';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  WEBHOOK_PATHS,
  WEBHOOK_SUBSCRIBABLE_EVENTS,
  type WebhookEndpoint,
  type WebhookSubscribableEvent,
  webhookUrlProblem,
} from '@tessera/common/webhooks';
import { useEffect, useRef, useState } from 'react';
import { FormActions, FormContainer, TextInput, useForm } from '../../forms';
import { byName, useCollection } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { fromBoolean, SwitchInput } from '../switch-input';
import { EventsInput, splitEvents } from './events-input';
import { SecretDialog } from './secret-dialog';
import { createEndpoint, type EndpointFields, type NewSecret, updateEndpoint, useEndpoint } from './webhook-api';

export type EndpointValues = {
  url: string;
  description: string;
  /** Comma-separated, in WEBHOOK_SUBSCRIBABLE_EVENTS order. */
  events: string;
  enabled: string;
  organizationId: string;
};

export function endpointValues(e: WebhookEndpoint): EndpointValues {
  return {
    url: e.url,
    description: e.description,
    events: e.events.join(','),
    enabled: fromBoolean(e.enabled),
    organizationId: String(e.organizationId),
  };
}

/** The body a save sends; `organizationId` only when the one saving chooses it. */
export function endpointFields(values: EndpointValues, withOrganization: boolean): EndpointFields {
  return {
    url: values.url.trim(),
    description: values.description.trim(),
    events: splitEvents(values.events) as WebhookSubscribableEvent[],
    enabled: values.enabled === 'true',
    ...(withOrganization && values.organizationId !== '' ? { organizationId: Number(values.organizationId) } : {}),
  };
}

const checkDescription = (value: string) =>
  value.length > WEBHOOK_LIMITS.descriptionMax ? WEBHOOK_MESSAGES.description : undefined;

export function WebhookEditor({ id }: { id?: number }) {
  const self = useStore((s) => s.self);
  const anywhere = canManageOrganizations(self.role);
  const creating = id === undefined;
  const path = id === undefined ? null : WEBHOOK_PATHS.endpoint(id);
  const endpoint = useEndpoint(id ?? 0);
  const form = useForm<EndpointValues>({
    url: '',
    description: '',
    events: WEBHOOK_SUBSCRIBABLE_EVENTS.join(','),
    enabled: 'true',
    organizationId: self.organizationId === null ? '' : String(self.organizationId),
  });
  const loaded = useRef(false);
  const [shown, setShown] = useState<NewSecret | null>(null);

  useFetch(path);
  useFetch(creating && anywhere ? RESOURCE_PATHS.organizations : null);
  const organizations = useCollection<Organization>('organizations', byName);

  useEffect(() => {
    if (!endpoint || creating || loaded.current) return;
    loaded.current = true;
    form.reset(endpointValues(endpoint));
  }, [endpoint, creating, form.reset]);

  if (!creating && !endpoint) return <CircularProgress aria-label="Loading the endpoint" />;
  const back = creating ? '/webhooks' : `/webhooks/${id}`;

  async function save(values: EndpointValues) {
    if (id === undefined) {
      setShown(await createEndpoint(endpointFields(values, anywhere)));
      return;
    }
    await updateEndpoint(id, endpointFields(values, false));
    navigate(`/webhooks/${id}`);
  }

  return (
    <>
      <PageHeading>{creating ? 'New Webhook Endpoint' : 'Edit Webhook Endpoint'}</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 720 }}>
        <Stack spacing={2}>
          {creating && anywhere && (
            <TextInput name="organizationId" label="Organization" select>
              {organizations.map((o) => (
                <MenuItem key={o.id} value={String(o.id)}>
                  {o.name}
                </MenuItem>
              ))}
            </TextInput>
          )}
          <TextInput
            name="url"
            label="URL"
            what="a URL"
            type="url"
            autoFocus
            check={(value) => webhookUrlProblem(value) ?? undefined}
            slotProps={{ htmlInput: { maxLength: WEBHOOK_LIMITS.urlMax, spellCheck: false } }}
            helperText="Where deliveries are POSTed: https://…, or http:// to this machine (127.0.0.1, localhost) for testing."
          />
          <TextInput
            name="description"
            label="Description"
            optional
            multiline
            minRows={2}
            check={checkDescription}
            slotProps={{ htmlInput: { maxLength: WEBHOOK_LIMITS.descriptionMax } }}
            helperText="What the endpoint is for."
          />
          <EventsInput />
          <SwitchInput name="enabled" label="Enabled: deliveries are sent" />
          <FormActions
            submit={creating ? 'Create Endpoint' : 'Save'}
            blocked={shown !== null}
            onCancel={() => navigate(back)}
          />
        </Stack>
      </FormContainer>
      <SecretDialog
        shown={shown}
        onClose={() => {
          const made = shown;
          setShown(null);
          if (made) navigate(`/webhooks/${made.endpoint.id}`);
        }}
      />
    </>
  );
}
