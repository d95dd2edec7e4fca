import type { Executor } from '../db/client';
import { pageViews } from '../db/schema';
import { redactUrl } from '../logger';

/** Keeps the path and the query parameter names of a visited URL, never their values or the fragment. */
export function pageViewUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return redactUrl(`${parsed.pathname}${parsed.search}`).slice(0, 2048);
}

export interface PageView {
  journeyId: string;
  sessionId: number | null;
  userId: number | null;
  hitIndex: number;
  url: string;
}

export async function insertPageView(db: Executor, view: PageView): Promise<void> {
  await db.insert(pageViews).values(view);
}
