/**
 * Contact Us (issue 18 item 3): name, email, company and phone (optional) and a message, checked by the spec §5
 * rules; a confirmation alert once the server has stored it. Staff (super+) also see the messages received, and
 * mark them handled.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_WHAT, isPhone } from '@tessera/common/contact';
import { hasRank } from '@tessera/common/roles';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { ContactInbox } from './contact-inbox';
import { OptOutForm } from './opt-out-form';
import { useOptOutConfirm } from './use-opt-out-confirm';

const EMPTY = { name: '', email: '', company: '', phone: '', message: '' };

const phoneCheck = (value: string) => (isPhone(value) ? undefined : CONTACT_MESSAGES.phone);

export default function ContactPage() {
  const form = useForm(EMPTY);
  const self = useStore((s) => s.self);
  // Issue 22: a request to be left out of lookups, beside the message; its mailed link lands here.
  const [kind, setKind] = useState<'message' | 'opt-out'>('message');
  useOptOutConfirm();

  async function send(values: typeof EMPTY) {
    await api.post('/v2/contact', {
      name: values.name.trim(),
      email: values.email.trim(),
      company: values.company.trim(),
      phone: values.phone.trim(),
      message: values.message.trim(),
    });
    useStore
      .getState()
      .addAlert({ type: 'success', title: CONTACT_MESSAGES.sentTitle, text: CONTACT_MESSAGES.sentText });
    form.reset(EMPTY);
  }

  return (
    <Box sx={{ maxWidth: 860 }}>
      <PageHeading>Contact Us</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Questions about the API, your contract or your data? Write to us and we will answer by email.
        {hasRank(self.role, 'user') && (
          <>
            {' '}
            Signed in, you can also ask in the{' '}
            <Link component={RouterLink} to="/chat">
              Support Chat
            </Link>
            , where staff answer as you write.
          </>
        )}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={kind}
        onChange={(_e, next: 'message' | 'opt-out' | null) => next && setKind(next)}
        aria-label="Request type"
        sx={{ mb: 3 }}
      >
        <ToggleButton value="message">Send a message</ToggleButton>
        <ToggleButton value="opt-out">Opt out of our data</ToggleButton>
      </ToggleButtonGroup>
      {kind === 'opt-out' ? (
        <OptOutForm />
      ) : (
        <FormContainer form={form} onValid={send}>
          <Stack spacing={1} sx={{ maxWidth: 560 }}>
            <TextInput
              name="name"
              label="Name"
              what={CONTACT_WHAT.name}
              autoComplete="name"
              maxLength={CONTACT_LIMITS.name}
            />
            <TextInput name="email" label="Email" type="email" rule="email" autoComplete="email" />
            <TextInput
              name="company"
              label="Company"
              what={CONTACT_WHAT.company}
              optional
              autoComplete="organization"
              maxLength={CONTACT_LIMITS.company}
            />
            <TextInput
              name="phone"
              label="Phone"
              type="tel"
              what={CONTACT_WHAT.phone}
              optional
              autoComplete="tel"
              maxLength={CONTACT_LIMITS.phone}
              check={phoneCheck}
            />
            <TextInput
              name="message"
              label="Message"
              what={CONTACT_WHAT.message}
              multiline
              minRows={5}
              maxLength={CONTACT_LIMITS.message}
            />
            <Box>
              <Button type="submit" variant="contained" size="large" disabled={form.busy}>
                Send message
              </Button>
            </Box>
          </Stack>
        </FormContainer>
      )}
      {hasRank(self.role, 'super') && <ContactInbox />}
    </Box>
  );
}
