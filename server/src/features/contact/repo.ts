/** Stored contact messages. */
import type { ContactMessage } from '@tessera/common/contact';
import { desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { contactMessages } from '../../db/schema';
import type { ContactBody } from './schemas';

/** How many messages one list answers with, newest first (spec §9 items per page). */
export const LIST_LIMIT = 100;

type Row = typeof contactMessages.$inferSelect;

function view(row: Row): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    handledAt: row.handledAt?.toISOString() ?? null,
    handledBy: row.handledBy,
  };
}

export async function storeMessage(db: Executor, body: ContactBody, userId: number | null): Promise<ContactMessage> {
  const [row] = await db
    .insert(contactMessages)
    .values({ ...body, userId })
    .returning();
  return view(row!);
}

export async function listMessages(db: Executor, handled: 'true' | 'false' | 'all'): Promise<ContactMessage[]> {
  const where =
    handled === 'all'
      ? undefined
      : handled === 'true'
        ? isNotNull(contactMessages.handledAt)
        : isNull(contactMessages.handledAt);
  const rows = await db
    .select()
    .from(contactMessages)
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(LIST_LIMIT);
  return rows.map(view);
}

/** Marks a message handled (by `userId`, now) or waiting again; null when there is no such message. */
export async function setHandled(
  db: Executor,
  id: number,
  handled: boolean,
  userId: number,
): Promise<ContactMessage | null> {
  const [row] = await db
    .update(contactMessages)
    .set(handled ? { handledAt: new Date(), handledBy: userId } : { handledAt: null, handledBy: null })
    .where(eq(contactMessages.id, id))
    .returning();
  return row ? view(row) : null;
}
