/**
 * Outside sign-in for browser tests: the real OpenID provider the server tests use (oidc-provider, see
 * server/src/features/oauth/test-issuer.ts) on 127.0.0.1, and the real server configured by OAUTH_* variables
 * to use it for some providers. The browser meets the provider's own small sign-in page there.
 */
import type { ProviderId } from '@tessera/common/providers';
import { startTestIssuer, type TestIssuer } from '@tessera/server/features/oauth/test-issuer';
import { freePort } from '@tessera/server/test/process';
import { useStarted } from './browser';
import { type RunningServer, type ServerOptions, startServer } from './server';

/**
 * A server whose `ids` providers sign in at a local issuer. The issuer must know the server's callback URLs
 * before either starts, so the server's port is chosen first.
 */
export async function startServerWithIssuer(
  ids: ProviderId[],
  options: ServerOptions = {},
): Promise<{ server: RunningServer; issuer: TestIssuer }> {
  const port = options.port ?? (await freePort());
  const issuer = await startTestIssuer({ publicUrl: new URL(`http://localhost:${port}`), ids });
  try {
    const server = await startServer({ ...options, port, env: { ...options.env, ...issuer.env(ids) } });
    return { server, issuer };
  } catch (err) {
    await issuer.close();
    throw err;
  }
}

/** A spec file's issuer, server and browser; root and the seeded users (but signers) have accepted the agreement. */
export function useServerWithIssuer(ids: ProviderId[], options: ServerOptions = {}) {
  return useStarted(() => startServerWithIssuer(ids, options), { close: (started) => started.issuer.close() });
}
