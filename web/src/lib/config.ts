/** Runtime configuration the server writes into index.html (absent under the Vite dev server). */
export interface ClientConfig {
  ciHost: string | null;
  version: string | null;
}

export function readConfig(doc: Document = document): ClientConfig {
  const content = doc.querySelector('meta[name="tessera-config"]')?.getAttribute('content');
  try {
    const parsed = content ? (JSON.parse(content) as Partial<ClientConfig>) : {};
    return { ciHost: parsed.ciHost ?? null, version: parsed.version ?? null };
  } catch {
    return { ciHost: null, version: null };
  }
}

export const config = readConfig();
