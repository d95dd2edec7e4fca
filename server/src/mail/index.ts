/** Outgoing mail: the background mailer and the account messages it sends. */
export * from './document';
export * from './mailer';
export * from './messages';
