/**
 * Subscribe (issue 33 item 2): what to follow (an identity id, or an e-mail, a phone or an e-mail's hash held by
 * someone), its value and the template that shapes each event's record. The value is checked as the server checks
 * it; what the server still refuses (no one holds it, the contract's limit reached, no contract in force) is shown
 * in an alert beside the form, naming the problem. A subscription made goes to the page's list, and a status line
 * says so.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Subscription } from '@tessera/common/subscriptions';
import { useState } from 'react';
import { FormContainer, FormOutcome, TextInput, useForm } from '../../forms';
import { ApiError } from '../../lib/api';
import { subscribe } from './subscription-api';
import {
  EMPTY_SUBSCRIBE,
  followsOf,
  isSubscribeKind,
  KIND_LABEL,
  SUBSCRIBE_KINDS,
  type SubscribeValues,
  subscribeBody,
  VALUE_FIELD,
  valueProblem,
} from './subscription-values';

export interface TemplateChoice {
  id: number;
  name: string;
}

/** The title of the alert telling why the server refused a Subscribe; its text is the server's message. */
export const NOT_SUBSCRIBED = 'Not subscribed';

/** The longest input the server reads (server/src/features/subscriptions/schemas.ts). */
const VALUE_MAX = 320;

/** What a made subscription's status line says. */
export function madeText(made: Subscription): string {
  const { label, value } = followsOf(made);
  return value === null
    ? `Subscribed to identity ${made.identityId}.`
    : `Subscribed to identity ${made.identityId}, by its ${label.toLowerCase()} ${value}.`;
}

export function SubscribeForm({
  templates,
  onMade,
  onRefused,
}: {
  templates: TemplateChoice[];
  onMade: (made: Subscription) => void;
  /** The server refused it, with this status (shown beside the form already). */
  onRefused?: (status: number) => void;
}) {
  const form = useForm<SubscribeValues>(EMPTY_SUBSCRIBE);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const kind = isSubscribeKind(form.values.kind) ? form.values.kind : 'email';
  const field = VALUE_FIELD[kind];
  const templateName = (id: string) =>
    id === '' ? 'Default: Full' : (templates.find((t) => String(t.id) === id)?.name ?? `Template ${id}`);

  async function send(values: SubscribeValues) {
    setFailure(null);
    setDone('');
    try {
      const made = await subscribe(subscribeBody(values));
      onMade(made);
      setDone(madeText(made));
      form.reset({ ...values, value: '' });
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure(error.message);
        onRefused?.(error.status);
      }
      throw error;
    }
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby="subscribe-heading" sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2" id="subscribe-heading" sx={{ mb: 2 }}>
        Subscribe
      </Typography>
      <FormContainer form={form} onValid={send}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            alignItems: 'start',
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '200px minmax(0, 1fr) 220px auto' },
          }}
        >
          <TextInput name="kind" label="Subscribe by" select size="small" helperText="How to find the person.">
            {SUBSCRIBE_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {KIND_LABEL[k]}
              </MenuItem>
            ))}
          </TextInput>
          <TextInput
            name="value"
            label={field.label}
            what={field.what}
            size="small"
            check={(value, values) => valueProblem(values.kind ?? '', value)}
            dependsOn={['kind']}
            helperText={field.help}
            slotProps={{
              htmlInput: {
                maxLength: VALUE_MAX,
                spellCheck: false,
                autoComplete: 'off',
                inputMode: kind === 'identityId' ? 'numeric' : kind === 'phone' ? 'tel' : undefined,
              },
            }}
          />
          <TextInput
            name="template"
            label="Template"
            optional
            select
            size="small"
            helperText="Shapes the record in each event."
            slotProps={{
              inputLabel: { shrink: true },
              select: { displayEmpty: true, renderValue: (v) => templateName(String(v)) },
            }}
          >
            <MenuItem value="">Default: Full</MenuItem>
            {templates.map((t) => (
              <MenuItem key={t.id} value={String(t.id)}>
                {t.name} ({t.id})
              </MenuItem>
            ))}
          </TextInput>
          <Button
            type="submit"
            variant="contained"
            disabled={form.busy}
            sx={{ height: 40, justifySelf: { xs: 'start', md: 'stretch' } }}
          >
            Subscribe
          </Button>
        </Box>
      </FormContainer>
      <FormOutcome
        failure={failure === null ? null : { title: NOT_SUBSCRIBED, text: failure }}
        onDismiss={() => setFailure(null)}
        done={done}
        testId="subscribe"
        gap={1}
      />
    </Paper>
  );
}
