export * from './organizations';
export * from './page-views';
export * from './sessions';
export * from './users';
