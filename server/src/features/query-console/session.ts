/** What a console run needs of its connection, the same on both engines: every value comes back as text. */
import type { Cell } from './row-literal';

export interface Session {
  exec(text: string, params?: unknown[]): Promise<void>;
  fetch(text: string, params?: unknown[]): Promise<Cell[][]>;
}
