/**
 * A release of this repository's HEAD and a finished deployment of another, made through the API from a signed-in
 * root page, for specs that visit release and deployment pages (issue 21). The deployment goes to the default
 * `local` environment, so open pages may reload onto the new version once it ends.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { callApi } from './browser';

const HEAD = execFileSync('git', ['-C', fileURLToPath(new URL('../..', import.meta.url)), 'rev-parse', 'HEAD'])
  .toString()
  .trim();

const firstId = (body: unknown, area: string) =>
  Number(Object.keys((body as Record<string, Record<string, unknown>>)[area] ?? {})[0]);

export async function releaseAndDeployment(page: Page): Promise<{ releaseId: number; deploymentId: number }> {
  const cut = (tag: string) =>
    callApi(page, 'POST', '/v2/releases', { version: `0.0.1-${tag}.${randomUUID().slice(0, 6)}`, commit: HEAD });
  const draft = await cut('draft');
  const shipped = await cut('shipped');
  if (draft.status !== 201 || shipped.status !== 201)
    throw new Error(`release not cut: ${draft.status} ${shipped.status}`);
  const shippedId = firstId(shipped.body, 'releases');
  await callApi(page, 'POST', `/v2/releases/${shippedId}/publish`);
  const deployed = await callApi(page, 'POST', '/v2/deployments', { releaseId: shippedId, environment: 'local' });
  if (deployed.status !== 201) throw new Error(`deployment not started: ${deployed.status}`);
  const deploymentId = firstId(deployed.body, 'deployments');
  for (;;) {
    // The page may reload under the call when the deployment ends (spec §1): ask again then.
    const answer = await callApi(page, 'GET', `/v2/deployments/${deploymentId}`).catch(() => null);
    const deployments = (answer?.body as { deployments?: Record<string, { finishedAt: string | null }> } | null)
      ?.deployments;
    const deployment = deployments?.[deploymentId];
    if (deployment?.finishedAt) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { releaseId: firstId(draft.body, 'releases'), deploymentId };
}
