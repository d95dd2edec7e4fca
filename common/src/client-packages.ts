/** The client libraries' packages as the server lists them (GET /v2/clients; scripts/build-clients.mjs). */
export const CLIENT_LANGUAGES = ['js', 'python', 'java'] as const;
export type ClientLanguage = (typeof CLIENT_LANGUAGES)[number];

export interface ClientPackage {
  language: ClientLanguage;
  /** The file's name, downloadable at /clients/{file}; absent when it could not be built on this server. */
  file?: string;
  version?: string;
  bytes?: number;
  /** Hex SHA-256 of the file. */
  sha256?: string;
  /** Why there is no file (a toolchain missing where the server was built). */
  missing?: string;
  /** The package's README, at /clients/{readme}. */
  readme?: string;
}

/** Where a package file is downloaded from. */
export const clientPackagePath = (file: string) => `/clients/${encodeURIComponent(file)}`;
