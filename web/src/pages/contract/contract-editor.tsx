/**
 * Write a contract (/contracts/add/{organizationId}) or change one (/contracts/edit/{id}); super+ only, as the
 * server enforces. Every field carries the spec §5 rule and the shared message of common/contracts.ts. An edit
 * sends only what changed, so the history records just that.
 */
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CONTRACT_LIMITS,
  CONTRACT_STATUS_LABELS,
  CONTRACT_STATUSES,
  type Contract,
  CONTRACT_FIELD_LABELS as LABELS,
  limitProblem,
  PRICE_GROUPS,
  priceProblem,
  rateLimitProblem,
  subscriptionLimitProblem,
} from '@tessera/common/contracts';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { useEffect, useRef } from 'react';
import { FormActions, FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { bodyOf, type ContractValues, checkDay, checkEnd, emptyValues, valuesOf } from './contract-values';
import { DateInput } from './date-input';

const CONTRACTS_PATH = '/v2/contracts';

function Amount(props: {
  name: string;
  label: string;
  what: string;
  optional?: boolean;
  limit?: boolean;
  help?: string;
}) {
  return (
    <TextInput
      name={props.name}
      label={props.label}
      what={props.what}
      rule="number"
      optional={props.optional}
      check={props.limit ? limitProblem : priceProblem}
      helperText={props.help ?? 'US dollars, up to six decimals.'}
      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
    />
  );
}

export function ContractEditor(props: { id?: number; organizationId?: number }) {
  const contract = useStore((s) =>
    props.id === undefined ? undefined : (s.areas.contracts as Record<string, Contract> | undefined)?.[props.id],
  );
  const organizationId = props.organizationId ?? contract?.organizationId;
  const organization = useItem<Organization>('organizations', organizationId);
  const form = useForm<ContractValues>(emptyValues());
  const initial = useRef<ContractValues | undefined>(undefined);

  useFetch(props.id === undefined ? null : `${CONTRACTS_PATH}/${props.id}`);
  useFetch(organizationId === undefined ? null : `${RESOURCE_PATHS.organizations}/${organizationId}`);

  useEffect(() => {
    if (!contract || initial.current) return;
    initial.current = valuesOf(contract);
    form.reset(initial.current);
  }, [contract, form.reset]);

  if (props.id !== undefined && !contract) return <CircularProgress aria-label="Loading the contract" />;
  const back = props.id === undefined ? `/organizations/${organizationId}#contracts` : `/contracts/${props.id}`;

  async function save(values: ContractValues) {
    if (props.id === undefined) {
      const reply = await api.post<{ contracts: Record<string, Contract> }>(CONTRACTS_PATH, {
        organizationId,
        ...bodyOf(values),
      });
      const [made] = Object.values(reply.contracts);
      navigate(`/contracts/${made?.id}`);
    } else {
      const body = bodyOf(values, initial.current);
      if (Object.keys(body).length > 0) await api.put(`${CONTRACTS_PATH}/${props.id}`, body);
      navigate(`/contracts/${props.id}`);
    }
  }

  const title = props.id === undefined ? 'New Contract' : `Edit ${contract?.name || `Contract ${props.id}`}`;
  return (
    <>
      <PageHeading>{title}</PageHeading>
      <Typography sx={{ mb: 2 }}>
        For {organization?.name ?? `organization ${organizationId}`}. Changes apply to calls from the moment they are
        saved; days begin at 00:00 UTC.
      </Typography>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 720 }} aria-label="Contract">
        <Stack spacing={1}>
          <TextInput name="name" label={LABELS.name!} optional maxLength={CONTRACT_LIMITS.nameMax} autoFocus />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateInput name="startsAt" label="Starts on" what="a start date" check={checkDay} />
            <DateInput
              name="endsAt"
              label="Ends on"
              what="an end date"
              check={checkEnd}
              dependsOn={['startsAt']}
              helperText="The first day it no longer applies."
            />
          </Stack>
          <TextInput name="status" label={LABELS.status!} select>
            {CONTRACT_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {CONTRACT_STATUS_LABELS[s]}
              </MenuItem>
            ))}
          </TextInput>
          <Amount name="pricePerRequest" label={LABELS.pricePerRequest!} what="a price per request" />
          <Amount name="pricePerIdentity" label={LABELS.pricePerIdentity!} what="a price per identity" />
          <Typography component="h2" variant="h6" sx={{ pt: 1 }}>
            Prices per record group
          </Typography>
          <Typography color="text.secondary" sx={{ pb: 1 }}>
            Charged per identity returned holding records of the group; empty: not charged.
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
            {PRICE_GROUPS.map((group) => (
              <Stack key={group} sx={{ width: { xs: '100%', sm: 200 } }}>
                <Amount name={group} label={`Price: ${group}`} what={`a price for ${group}`} optional help=" " />
              </Stack>
            ))}
          </Stack>
          <Amount
            name="monthlyLimit"
            label={LABELS.monthlyLimit!}
            what="a monthly limit"
            optional
            limit
            help="US dollars a calendar month (UTC), up to two decimals. Empty: no limit."
          />
          <TextInput
            name="rateLimit"
            label="Rate limit (requests a minute)"
            what="a rate limit"
            rule="integer"
            optional
            check={rateLimitProblem}
            helperText="For the whole organization. Empty: no limit."
          />
          <Amount
            name="pricePerEvent"
            label={LABELS.pricePerEvent!}
            what="a price per change event"
            help="Charged per change event of a subscribed identity delivered to a webhook."
          />
          <TextInput
            name="subscriptionLimit"
            label={LABELS.subscriptionLimit!}
            what="a subscription limit"
            rule="integer"
            optional
            check={subscriptionLimitProblem}
            helperText="Change subscriptions the organization may hold at once. Empty: no limit."
          />
          <FormActions
            submit={props.id === undefined ? 'Create Contract' : 'Save'}
            blocked={organizationId === undefined}
            onCancel={() => navigate(back)}
          />
        </Stack>
      </FormContainer>
    </>
  );
}
