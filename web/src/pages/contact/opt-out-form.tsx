/**
 * An opt-out request (issue 22 item 1): the address the confirmation link goes to (and is left out), and a phone
 * number to leave out too. The reply is the same whether or not we hold the address.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_WHAT, isPhone } from '@tessera/common/contact';
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';

const EMPTY = { email: '', phone: '' };

const phoneCheck = (value: string) => (isPhone(value) ? undefined : CONTACT_MESSAGES.phone);

export function OptOutForm() {
  const form = useForm(EMPTY);

  async function ask(values: typeof EMPTY) {
    await api.post('/v2/opt-out', { email: values.email.trim(), phone: values.phone.trim() });
    useStore.getState().addAlert({
      type: 'success',
      title: STEWARDSHIP_MESSAGES.optOutSentTitle,
      text: STEWARDSHIP_MESSAGES.optOutSentText,
    });
    form.reset(EMPTY);
  }

  return (
    <FormContainer form={form} onValid={ask}>
      <Stack spacing={1} sx={{ maxWidth: 560 }}>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          Ask us to leave your email address, and a phone number if you give one, out of every answer our customers’
          lookups get. We send a link to the address to confirm the request; it works once, for 72 hours.
        </Typography>
        <TextInput name="email" label="Email" type="email" rule="email" autoComplete="email" />
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
        <Box>
          <Button type="submit" variant="contained" size="large" disabled={form.busy}>
            Ask to be left out
          </Button>
        </Box>
      </Stack>
    </FormContainer>
  );
}
