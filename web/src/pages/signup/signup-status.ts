/** Spec §4 sign-up email states and their spec §8 messages. */
import type { AlertColor } from '@mui/material/Alert';
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';

/** Spec §3 pre-approval response. */
export interface Preapproval {
  emailDomain: string;
  organizationName: string;
  acceptUsers: boolean;
  /** The existing account's id for the address; 0 when there is none. */
  userId: number;
}

export type SignupState = 'unknown' | 'existing' | 'accepting' | 'closed';

export function signupState(reply: Preapproval | null): SignupState {
  if (!reply) return 'unknown';
  if (reply.userId > 0) return 'existing';
  return reply.acceptUsers ? 'accepting' : 'closed';
}

const SEVERITY: Record<SignupState, AlertColor> = {
  unknown: 'info',
  existing: 'warning',
  accepting: 'success',
  closed: 'error',
};

/** What the form says about the address: its severity and text. */
export function signupStatus(reply: Preapproval | null, email: string): { severity: AlertColor; text: string } {
  const state = signupState(reply);
  const text =
    state === 'existing'
      ? ACCOUNT_MESSAGES.existingUser(email)
      : state === 'accepting'
        ? ACCOUNT_MESSAGES.organizationAccepts(reply?.organizationName ?? '')
        : state === 'closed'
          ? ACCOUNT_MESSAGES.noAcceptingOrganization(reply?.emailDomain ?? '')
          : ACCOUNT_MESSAGES.workEmail;
  return { severity: SEVERITY[state], text };
}

/** 'Verify email' is refused for an address that already has an account or whose domain takes nobody. */
export function canVerify(state: SignupState): boolean {
  return state === 'unknown' || state === 'accepting';
}
