// Finds the Chromium the browser tests drive: CHROME_PATH, or Debian's /usr/bin/chromium.
import { existsSync } from 'node:fs';

export function chromiumPath() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  return candidates.find((p) => existsSync(p)) ?? null;
}
