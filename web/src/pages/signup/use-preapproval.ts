/**
 * Spec §2/§5 sign-up email check: only an address of valid shape is sent to POST /auth/preapprove, when the
 * field is left and 250 ms after typing stops. The answer counts only while the field still holds that address.
 */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { DEBOUNCE_MS } from '@tessera/common/constants';
import { isEmail } from '@tessera/common/validation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import type { Preapproval } from './signup-status';

export function usePreapproval(typed: string): { reply: Preapproval | null; check: (value: string) => void } {
  const email = typed.trim();
  const [answered, setAnswered] = useState<{ email: string; reply: Preapproval } | null>(null);
  /** The address last sent, while its answer is awaited or held. */
  const asked = useRef('');

  const check = useCallback((value: string) => {
    const address = value.trim();
    if (!isEmail(address) || asked.current === address) return;
    asked.current = address;
    api.post<Preapproval>(AUTH_PATHS.preapprove, { email: address }).then(
      (reply) => {
        if (asked.current === address) setAnswered({ email: address, reply });
      },
      () => {
        // Alerted by the API client (a 429 says when to try again); leaving the field asks again.
        if (asked.current === address) asked.current = '';
      },
    );
  }, []);

  useEffect(() => {
    if (!isEmail(email)) return;
    const timer = setTimeout(() => check(email), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [email, check]);

  return { reply: answered?.email === email ? answered.reply : null, check };
}
