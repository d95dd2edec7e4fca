/**
 * Whether a staff member is connected (decision 0032): each process counts the staff sockets on the queue channel
 * and writes the count to its row in `chat_presence` on a heartbeat; staff are online when some process's row is
 * fresh and counts one or more. Works across processes; a process that died stops counting once its row is stale.
 */
import { randomUUID } from 'node:crypto';
import { CHAT_QUEUE_CHANNEL, isChatStaff } from '@tessera/common/support-chat';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { Hub } from '../../socket/hub';

export const PRESENCE_BEAT_MS = 5000;
/** A row older than this many beats is a process that stopped. */
const STALE_BEATS = 3;

export function createPresence(deps: { database: Database; hub: Hub; logger: FastifyBaseLogger; beatMs?: number }) {
  const { database, hub } = deps;
  const beatMs = deps.beatMs ?? PRESENCE_BEAT_MS;
  const processId = randomUUID();
  let timer: NodeJS.Timeout | null = null;

  const localStaff = () => hub.listeners(CHAT_QUEUE_CHANNEL).filter((u) => isChatStaff(u.role)).length;

  async function beat(): Promise<void> {
    await database.query(
      `insert into chat_presence (process_id, staff, seen_at) values ($1, $2, now())
       on conflict (process_id) do update set staff = excluded.staff, seen_at = excluded.seen_at`,
      [processId, localStaff()],
    );
  }

  const beatLogged = () =>
    void beat().catch((error: unknown) =>
      deps.logger.warn({ code: (error as { code?: unknown })?.code }, 'chat presence not recorded'),
    );

  return {
    /** Whether any process holds a staff socket now (this one counted live, the others by their last beat). */
    async staffOnline(): Promise<boolean> {
      if (localStaff() > 0) return true;
      const [row] = await database.query<{ online: boolean }>(
        `select exists (select 1 from chat_presence where process_id <> $1 and staff > 0
           and seen_at > now() - make_interval(secs => $2)) as online`,
        [processId, (beatMs * STALE_BEATS) / 1000],
      );
      return row?.online === true;
    },
    beat,
    start(): void {
      if (timer) return;
      beatLogged();
      timer = setInterval(beatLogged, beatMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await database.query('delete from chat_presence where process_id = $1', [processId]).catch(() => undefined);
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
