/** The body of PUT /v2/organizations/{id}/usage-alerts: any of the settings, checked by common/usage-alerts.ts. */
import {
  isMultiple,
  thresholdsProblem,
  USAGE_ALERT_LIMITS,
  USAGE_ALERT_MESSAGES,
  type UsageAlertSettings,
} from '@tessera/common/usage-alerts';
import { z } from 'zod';

const thresholds = z
  .array(z.number({ error: USAGE_ALERT_MESSAGES.thresholds }), { error: USAGE_ALERT_MESSAGES.thresholds })
  .max(USAGE_ALERT_LIMITS.maxThresholds, USAGE_ALERT_MESSAGES.thresholds)
  .superRefine((shares, ctx) => {
    const problem = thresholdsProblem(shares);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((shares) => [...shares].sort((a, b) => a - b));

export const usageAlertsBody = z
  .object({
    thresholdsOn: z.boolean(),
    thresholds,
    spikeOn: z.boolean(),
    spikeMultiple: z
      .number({ error: USAGE_ALERT_MESSAGES.multiple })
      .refine(isMultiple, { message: USAGE_ALERT_MESSAGES.multiple }),
  })
  .partial()
  .strict() satisfies z.ZodType<Partial<UsageAlertSettings>>;

export const organizationParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
