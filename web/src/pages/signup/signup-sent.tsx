/** Spec §2/§4 sign-up 'sent': the 'Verify Your Email' confirmation with the spam-folder hint. */
import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import Typography from '@mui/material/Typography';
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { PageHeading } from '../page-heading';

export function SignupSent({ email }: { email: string }) {
  const { title, text, hint } = ACCOUNT_MESSAGES.signupSent;
  return (
    <div data-testid="signup-sent">
      <MarkEmailRead color="success" sx={{ fontSize: 48, mb: 1 }} />
      <PageHeading>{title}</PageHeading>
      <Typography sx={{ mb: 1 }}>{text}</Typography>
      <Typography sx={{ mb: 1 }}>
        It went to <strong>{email}</strong>.
      </Typography>
      <Typography color="text.secondary">{hint}</Typography>
    </div>
  );
}
