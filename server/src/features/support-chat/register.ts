/**
 * Support chat with the app (decision 0032): routes, staff presence on a heartbeat, and the scheduled check that
 * mails conversations left unanswered; both timers start when the app is ready and stop when it closes.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import type { Mailer } from '../../mail';
import type { Hub } from '../../socket/hub';
import type { Limiter } from '../throttle/limiter';
import { createPresence } from './presence';
import { registerChatRoutes } from './routes';
import { type ChatService, createChatService } from './service';

/** How often each process looks for conversations waiting too long (the claim makes it safe to overlap). */
export const UNANSWERED_CHECK_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests run the unanswered check and the presence beat rather than wait for their timers. */
    supportChat: ChatService & { beat(): Promise<void> };
  }
}

export function registerSupportChat(
  app: FastifyInstance,
  deps: {
    database: Database;
    hub: Hub;
    mailer: Mailer;
    limiter: Limiter;
    config: Pick<Config, 'publicUrl' | 'supportEmail' | 'chatUnansweredMinutes'>;
  },
): ChatService {
  const presence = createPresence({ database: deps.database, hub: deps.hub, logger: app.log });
  const chat = createChatService({
    database: deps.database,
    hub: deps.hub,
    mailer: deps.mailer,
    presence,
    publicUrl: deps.config.publicUrl,
    supportEmail: deps.config.supportEmail,
    unansweredMinutes: deps.config.chatUnansweredMinutes,
    logger: app.log,
  });
  app.decorate('supportChat', { ...chat, beat: presence.beat });
  registerChatRoutes(app, { chat, limiter: deps.limiter });

  const unanswered = periodicJob({ name: 'unanswered chat check', logger: app.log, run: () => chat.checkUnanswered() });
  app.addHook('onReady', async () => {
    presence.start();
    unanswered.start(UNANSWERED_CHECK_MS);
  });
  // onClose runs last-registered first: these end before the mailer (registered earlier) drains.
  app.addHook('onClose', async () => {
    await unanswered.stop();
    await presence.stop();
  });
  return chat;
}
