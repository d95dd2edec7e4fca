/** Writes the audit log: who (and who really, while impersonating) did what to what, from where. */
import type { Executor } from '../../db/client';
import { auditLog } from '../../db/schema';

export type AuditAction =
  | 'login.success'
  | 'login.failure'
  | 'logout'
  | 'password.change'
  | 'password.reset'
  | 'password.set'
  | 'password.forgot'
  | 'role.change'
  | 'impersonation.start'
  | 'impersonation.stop'
  | 'session.revoke'
  | 'agreement.accept'
  | 'agreement.publish'
  | 'contact.handle'
  | 'signup.request'
  | 'signup.verify'
  | 'preapprove.probe'
  | 'oauth.link'
  | 'oauth.signup'
  | 'user.create'
  | 'user.update'
  | 'user.delete'
  | 'organization.create'
  | 'organization.update'
  | 'organization.delete'
  | 'key.create'
  | 'key.update'
  | 'key.rotate'
  | 'key.revoke'
  | 'ssh.key.create'
  | 'ssh.key.delete'
  | 'ssh.group.create'
  | 'ssh.group.delete'
  | 'ssh.grant.create'
  | 'ssh.grant.revoke'
  | 'ssh.certificate.issue'
  | 'release.create'
  | 'release.update'
  | 'release.publish'
  | 'release.delete'
  | 'deployment.create'
  | 'deployment.cancel'
  | 'deployment.retry'
  | 'deployment.finish'
  | 'deployment.delete'
  | 'template.create'
  | 'template.update'
  | 'template.publish'
  | 'template.restore'
  | 'template.delete'
  | 'suppression.add'
  | 'suppression.lift'
  | 'suppression.import'
  | 'optout.confirm'
  | 'stepup.confirm'
  | 'stepup.failure'
  | 'query.run'
  | 'query.cancel'
  | 'contract.create'
  | 'contract.update'
  | 'contract.delete'
  | 'invoice.close'
  | 'invoice.pay'
  | 'invoice.void'
  | 'billing.update'
  | 'segment.create'
  | 'segment.update'
  | 'segment.delete'
  | 'two_factor.enable'
  | 'two_factor.disable'
  | 'two_factor.reset'
  | 'two_factor.recovery_codes'
  | 'two_factor.recovery_used'
  | 'two_factor.failure'
  | 'webhook.create'
  | 'webhook.update'
  | 'webhook.delete'
  | 'webhook.rotate'
  | 'webhook.test'
  | 'webhook.replay'
  | 'webhook.disable';

export interface AuditEntry {
  action: AuditAction;
  actorId?: number | null;
  impersonatorId?: number | null;
  targetType?: string;
  targetId?: string | number;
  ip?: string;
  /** Never secrets or passwords; e-mail domains rather than addresses where possible. */
  detail?: Record<string, unknown>;
}

/** Who made a request, for an entry: the user, the root impersonating them, and where from. */
export function actorOf(request: {
  user: { id: number; impersonator?: number | null };
  ip: string;
}): Pick<AuditEntry, 'actorId' | 'impersonatorId' | 'ip'> {
  return { actorId: request.user.id, impersonatorId: request.user.impersonator ?? null, ip: request.ip };
}

export async function audit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId || null,
    impersonatorId: entry.impersonatorId || null,
    targetType: entry.targetType ?? '',
    targetId: entry.targetId === undefined ? '' : String(entry.targetId),
    ip: entry.ip ?? '',
    detail: entry.detail ?? {},
  });
}
