/** Spec §2 Profile: the signed-in user's details, picture and password link, two-factor sign-in, their own sessions. */
import Stack from '@mui/material/Stack';
import { PageHeading } from '../page-heading';
import { MySessions } from './my-sessions';
import { ProfileDetails } from './profile-details';
import { TwoFactorSection } from './two-factor-section';

export default function ProfilePage() {
  return (
    <Stack spacing={3} sx={{ maxWidth: 860 }}>
      <PageHeading>Profile</PageHeading>
      <ProfileDetails />
      <TwoFactorSection />
      <MySessions />
    </Stack>
  );
}
