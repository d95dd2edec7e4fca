/**
 * The CLUSTERS setting: further PostgreSQL nodes the Clusters page watches and the query console reads (read
 * replicas, say). Either `name=postgres://...,name2=postgres://...` or a JSON object `{"name": "postgres://..."}`.
 * The main database is always `main`, so that name is taken.
 */
import { CLUSTER_NAME, MAIN_CLUSTER } from '@tessera/common/clusters';

export class ClusterSettingError extends Error {}

const PREFIX = 'Invalid configuration: CLUSTERS';

function entries(value: string): [string, string][] {
  if (value.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new ClusterSettingError(`${PREFIX} starts with '{' but is not valid JSON.`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ClusterSettingError(`${PREFIX} must be a JSON object of name to URL.`);
    }
    return Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : '']);
  }
  // A URL may hold commas (several hosts): a new entry starts only where a comma is followed by `name=`.
  return value.split(/,(?=\s*[a-z][a-z0-9_-]*=)/).map((part) => {
    const at = part.indexOf('=');
    if (at < 0) throw new ClusterSettingError(`${PREFIX}: '${part.trim()}' is not name=URL.`);
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
}

/** name -> URL, in the order given; null or blank gives none. */
export function parseClusters(value: string | null | undefined): Record<string, string> {
  if (!value?.trim()) return {};
  const clusters: Record<string, string> = {};
  for (const [name, url] of entries(value.trim())) {
    if (!CLUSTER_NAME.test(name)) {
      throw new ClusterSettingError(
        `${PREFIX}: '${name}' is not a valid name (lowercase letters, digits, '-' and '_', starting with a letter).`,
      );
    }
    if (name === MAIN_CLUSTER) throw new ClusterSettingError(`${PREFIX}: 'main' is the main database's name.`);
    if (name in clusters) throw new ClusterSettingError(`${PREFIX}: '${name}' is named twice.`);
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ClusterSettingError(`${PREFIX}: the URL of '${name}' must start with postgres:// or postgresql://.`);
    }
    clusters[name] = url;
  }
  return clusters;
}
