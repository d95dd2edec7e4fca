/**
 * Initial JavaScript of a console page, gzip: the entry chunk, every chunk it imports statically (what the
 * browser fetches before anything renders) and the page's own lazily loaded module with its static imports.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  src?: string;
}

export interface BundleSize {
  files: string[];
  gzipBytes: number;
  rawBytes: number;
}

export function initialJs(distDir: string, pageSource: string): BundleSize {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  visit(entry);
  const page = Object.keys(manifest).find((k) => k.endsWith(pageSource));
  if (!page) throw new Error(`no chunk for ${pageSource} in the manifest`);
  visit(page);
  const files = [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const f of files) {
    const content = readFileSync(path.join(distDir, f));
    rawBytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files, gzipBytes, rawBytes };
}
