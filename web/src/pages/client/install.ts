/**
 * What the Client Libraries page tells a reader to type (issue 17): the install command for each language's
 * package as this server offers it, and how to run the first example. Kept apart from the page so the commands
 * are tested as text, and run as shown by the browser test.
 */

import { type ClientLanguage, clientPackagePath } from '@tessera/common/client-packages';
import { TEST_KEY_PREFIX } from '@tessera/common/keys';
import { PLACEHOLDER_EMAIL } from '@tessera/common/samples';
import type { CodeLanguage, PACKAGE_MANAGERS } from '@tessera/common/settings';

export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

export const LANGUAGE_OF: Record<CodeLanguage, ClientLanguage> = {
  JavaScript: 'js',
  Python: 'python',
  Java: 'java',
};

/** The first example's file name, as the command to run it names it. */
export const EXAMPLE_FILE: Record<ClientLanguage, string> = {
  js: 'first-call.mjs',
  python: 'first_call.py',
  java: 'FirstCall.java',
};

const ADD: Record<PackageManager, string> = { npm: 'npm install', yarn: 'yarn add', pnpm: 'pnpm add' };

/** The command that installs `file` from the server at `origin`. */
export function installCommand(
  language: ClientLanguage,
  origin: string,
  file: string,
  packageManager: PackageManager,
): string {
  const url = `${origin}${clientPackagePath(file)}`;
  if (language === 'js') return `${ADD[packageManager]} ${url}`;
  if (language === 'python') return `pip install ${url}`;
  return `curl -O ${url}`;
}

/** What the key line says until a key is made for the example: a test key's shape, so the sandbox's sample fits. */
export const KEY_PLACEHOLDER = `${TEST_KEY_PREFIX}your-key-id-and-secret`;

/**
 * The environment the examples read, then the command that runs the example file. `email` finds someone for `key`
 * (a test key and the sandbox's sample, GET /v2/samples?mode=test), so the example answers with a record as written.
 */
export function runCommands(
  language: ClientLanguage,
  origin: string,
  file: string,
  first: { key?: string; email?: string } = {},
): string {
  const env = [
    `export TESSERA_BASE_URL=${origin}`,
    `export TESSERA_API_KEY=${first.key ?? KEY_PLACEHOLDER}`,
    `export TESSERA_EMAIL=${first.email ?? PLACEHOLDER_EMAIL}`,
  ];
  const run =
    language === 'js'
      ? `node ${EXAMPLE_FILE.js}`
      : language === 'python'
        ? `python3 ${EXAMPLE_FILE.python}`
        : `java -cp ${file} ${EXAMPLE_FILE.java}`;
  return [...env, run].join('\n');
}
