/**
 * What each page not yet built will hold, shown in its frame so nobody mistakes it for a finished page.
 * Each entry disappears when its page module is written.
 */
export const PAGE_DESCRIPTIONS: Record<string, string> = {
  'super-billing': 'Invoices and payments of every organization, with their contracts and amounts due.',
  'super-segments': 'Audience segments: saved lookups that select identity records, and their sizes.',
  'root-clusters': 'The database and search clusters the service runs on, and their health.',
  'root-query': 'Read-only SQL against the service database, for operators.',
  'root-ssh': 'SSH access to the service hosts: authorised keys and who may use them.',
  'user-contract': 'A contract: its organization, term, prices per lookup, limits and invoices.',
  'root-releases': 'Every release of the service, newest first, with its version and notes.',
  'root-release': 'A release: its version, notes and the deployments that carry it.',
  'root-deployments': 'Every deployment: which release went to which cluster, when, and by whom.',
  'root-deployment': 'A deployment: its release, cluster, status and log.',
  chat: 'Talk to the Tessera support team in real time.',
};
