export * from './agreements';
export * from './audit-log';
export * from './email-tokens';
export * from './identities';
export * from './organizations';
export * from './page-views';
export * from './sessions';
export * from './users';
