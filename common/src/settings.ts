/** Spec §3 local settings: what the browser persists, and their defaults. */
import { ITEMS_PER_PAGE } from './constants';

export const CODE_LANGUAGES = ['JavaScript', 'Python', 'Java'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export const PACKAGE_MANAGERS = ['npm', 'yarn', 'pnpm'] as const;

export interface Settings {
  /** null follows the system preference. */
  darkMode: boolean | null;
  email: string;
  language: CodeLanguage;
  packageManager: (typeof PACKAGE_MANAGERS)[number];
  itemsPerPage: number;
  templates: { autoSave: boolean; templatePaneSize: number };
  /** The playground's parameter pane, as last dragged (spec §2 default 50). */
  playgroundPaneSize: number;
  recordTypes: string[];
  backPath: string;
}

export const DEFAULT_SETTINGS: Settings = {
  darkMode: null,
  email: '',
  language: 'JavaScript',
  packageManager: 'npm',
  itemsPerPage: ITEMS_PER_PAGE,
  templates: { autoSave: true, templatePaneSize: 50 },
  playgroundPaneSize: 50,
  recordTypes: [],
  backPath: '/',
};

/** Spec §2 playground defaults. */
export const PLAYGROUND_DEFAULTS = {
  method: 'GET',
  path: '/v2/identities/byAny',
  output: 'csv',
  template: null as number | null,
  autoFetch: true,
  paneSize: 50,
} as const;

/** Spec §2 usage view defaults. */
export const USAGE_DEFAULTS = {
  widget: 'chart',
  range: 'month',
  interval: 'day',
  filters: ['who', 'method', 'path'],
  metric: 'requests',
  columns: ['time', 'userId', 'organizationId', 'method', 'path', 'inputs', 'metrics'],
} as const;
