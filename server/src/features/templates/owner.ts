/**
 * Whose turn a template's sandbox jobs take (decision 0049): the caller's organization, so that its users and keys
 * share one turn and one queue bound; a caller without one (staff, or a user in no organization) is its own owner.
 */
import type { LookupCaller } from '../identities/caller';
import type { CompiledTemplate } from './evaluate';

export function sandboxOwner(caller: Pick<LookupCaller, 'organizationId' | 'userId'>): string {
  return caller.organizationId !== null ? `organization:${caller.organizationId}` : `user:${caller.userId}`;
}

/**
 * The template as applied for `owner`: every job it sends takes that owner's turn. Wrapped where the caller is known
 * (the store's resolve), so every path that applies it (lookups, streams, exports, a CSV's columns) is counted.
 */
export function onBehalfOf(template: CompiledTemplate, owner: string): CompiledTemplate {
  if (template.full) return template;
  return {
    full: false,
    applyAll: (records, allowance, options) => template.applyAll(records, allowance, { ...options, owner }),
    apply: (record, options) => template.apply(record, { ...options, owner }),
  };
}
