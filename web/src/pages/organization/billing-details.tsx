/**
 * An organization's billing details (issue 32 item 10, decision 0064): who its invoices are made out to, shown and
 * edited by its administrators with the spec §5 rules (the server checks the same and names each field it refuses);
 * the tax rate is shown, and only System Administrators change it.
 */
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  BILLING_LIMITS,
  type BillingDetails,
  type BillingOverview,
  percentText,
  taxIdProblem,
  taxRateProblem,
} from '@tessera/common/billing';
import { formatDate } from '@tessera/common/dates';
import { hasRank } from '@tessera/common/roles';
import { US_STATES } from '@tessera/common/states';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { request } from '../../lib/api';
import { useStore } from '../../lib/store';
import { DetailList } from '../detail-list';

type Values = Record<'legalName' | 'street' | 'city' | 'state' | 'zip' | 'taxId' | 'email' | 'taxRate', string>;

const valuesOf = (d: BillingDetails | null): Values => ({
  legalName: d?.legalName ?? '',
  street: d?.street ?? '',
  city: d?.city ?? '',
  state: d?.state ?? '',
  zip: d?.zip ?? '',
  taxId: d?.taxId ?? '',
  email: d?.email ?? '',
  taxRate: d?.taxRate ? percentText(d.taxRate).slice(0, -1) : '',
});

/** The body a save sends: blanks as none; the tax rate only from those who may set it. */
export function billingBody(values: Values, setsTaxRate: boolean) {
  const t = (k: keyof Values) => values[k].trim();
  return {
    legalName: t('legalName'),
    street: t('street'),
    city: t('city'),
    state: t('state'),
    zip: t('zip'),
    taxId: t('taxId') || null,
    email: t('email') || null,
    ...(setsTaxRate ? { taxRate: t('taxRate') || null } : {}),
  };
}

function Summary({ billing }: { billing: BillingOverview }) {
  const d = billing.details;
  if (!d) {
    return (
      <Typography data-testid="no-billing-details">
        No billing details yet: invoices name only the organization until its legal name and address are given.
      </Typography>
    );
  }
  return (
    <DetailList
      items={[
        ['Legal name', d.legalName],
        ['Address', `${d.street}, ${d.city}, ${d.state} ${d.zip}`],
        ['Tax ID', d.taxId ?? 'None'],
        ['Invoices to', d.email ?? 'None'],
        ['Tax rate', billing.taxRate === null ? 'None' : percentText(billing.taxRate)],
        ['Payment terms', `Net ${billing.paymentDays} days`],
        ['Last changed', formatDate(d.updatedAt)],
      ]}
    />
  );
}

export function BillingDetailsSection({
  organizationId,
  billing,
  onSaved,
}: {
  organizationId: number;
  billing: BillingOverview;
  onSaved: (billing: BillingOverview) => void;
}) {
  const role = useStore((s) => s.self.role);
  const setsTaxRate = hasRank(role, 'super');
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState('');
  const form = useForm<Values>(valuesOf(billing.details));

  async function save(values: Values) {
    const reply = await request<{ billing: BillingOverview }>('PUT', `/v2/billing/${organizationId}`, {
      body: billingBody(values, setsTaxRate),
      merge: false,
    });
    onSaved(reply.billing);
    setEditing(false);
    setSaved('Billing details saved. Invoices issued from now on carry them.');
  }

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }} component="section" aria-labelledby="billing-details-heading">
      <Typography id="billing-details-heading" component="h3" variant="h6" sx={{ mb: 1 }}>
        Billing details
      </Typography>
      {!editing && (
        <>
          <Summary billing={billing} />
          <Button
            sx={{ mt: 2 }}
            variant="outlined"
            onClick={() => {
              form.reset(valuesOf(billing.details));
              setSaved('');
              setEditing(true);
            }}
          >
            {billing.details ? 'Edit billing details' : 'Add billing details'}
          </Button>
        </>
      )}
      <Typography role="status" sx={{ mt: saved ? 1 : 0 }}>
        {saved}
      </Typography>
      {editing && (
        <FormContainer form={form} onValid={save} sx={{ maxWidth: 560 }}>
          <Stack spacing={2}>
            {/* Every field has a line of help, so an error shown on leaving it moves nothing (the Save click lands). */}
            <TextInput
              name="legalName"
              label="Legal name"
              what="a legal name"
              maxLength={BILLING_LIMITS.legalName}
              helperText="As registered; invoices are made out to it."
            />
            <TextInput
              name="street"
              label="Street address"
              what="a street address"
              maxLength={MAX_LENGTH.address}
              helperText="Where invoices are addressed."
            />
            <TextInput name="city" label="City" what="a city" maxLength={MAX_LENGTH.city} helperText="The city." />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput
                name="state"
                label="State"
                rule="state"
                select
                helperText="A state, DC or a territory."
                sx={{ flex: 1 }}
                slotProps={{ select: { renderValue: (v) => String(v) } }}
              >
                {US_STATES.map((s) => (
                  <MenuItem key={s.abbreviation} value={s.abbreviation} dense>
                    <ListItemText primary={s.abbreviation} secondary={s.name} />
                  </MenuItem>
                ))}
              </TextInput>
              <TextInput name="zip" label="Zip code" rule="zip" helperText="5 digits." sx={{ flex: 1 }} />
            </Stack>
            <TextInput
              name="taxId"
              label="Tax ID"
              optional
              maxLength={BILLING_LIMITS.taxIdMax}
              check={taxIdProblem}
              helperText="Tax or VAT identification number, as it is to appear on invoices."
            />
            <TextInput
              name="email"
              label="Send invoices to"
              rule="email"
              optional
              helperText="The accounts department's e-mail address."
            />
            {setsTaxRate && (
              <TextInput
                name="taxRate"
                label="Tax rate (%)"
                optional
                check={taxRateProblem}
                helperText="Empty: the seller's default rate (or none)."
              />
            )}
            <Stack direction="row" spacing={2}>
              <Button type="submit" variant="contained" disabled={form.busy}>
                Save billing details
              </Button>
              <Button onClick={() => setEditing(false)} disabled={form.busy}>
                Cancel
              </Button>
            </Stack>
          </Stack>
        </FormContainer>
      )}
    </Paper>
  );
}
