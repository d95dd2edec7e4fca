/** The package's version, from package.json: the build writes it in (esbuild `define`), so it is kept in one place. */
declare const __TESSERA_CLIENT_VERSION__: string | undefined;

export const VERSION: string =
  typeof __TESSERA_CLIENT_VERSION__ === 'string' ? __TESSERA_CLIENT_VERSION__ : '0.0.0-source';
