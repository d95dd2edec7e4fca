/** The console socket at /ws (spec §7): `[name, payload]` messages in, keyed objects out. */
import { randomUUID } from 'node:crypto';
import { SOCKET_MAX_MESSAGES_PER_SECOND } from '@tessera/common/constants';
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { clientMessageSchema } from '@tessera/common/schemas/socket';
import { SOCKET_CLOSE, SOCKET_PATH } from '@tessera/common/socket';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client';
import { Forbidden } from '../http/errors';
import { isAllowedOrigin } from '../http/origin';
import { tokenBucket } from './flood';
import { type Connection, type Hub, send } from './hub';
import { insertPageView, pageViewUrl } from './page-views';

interface SocketDeps {
  hub: Hub;
  database: Database;
  publicUrl: URL;
  version: string;
}

const querySchema = z.object({
  url: z.string().max(2048),
  journeyId: z.uuid().optional().catch(undefined),
});

/** Removes query strings from URLs inside a browser stack trace before it is logged. */
function redactStack(stack: string): string {
  return stack.replace(/\?[^\s)]*/g, '?[redacted]').slice(0, 4000);
}

export function registerSocket(app: FastifyInstance, deps: SocketDeps): void {
  const { hub, database } = deps;
  app.withTypeProvider<ZodTypeProvider>().get(
    SOCKET_PATH,
    {
      websocket: true,
      schema: { querystring: querySchema },
      // Cross-site WebSocket hijacking: browsers always send Origin on a socket handshake.
      preValidation: async (request) => {
        const origin = request.headers.origin;
        if (origin !== undefined && !isAllowedOrigin(origin, deps.publicUrl)) {
          throw new Forbidden('Cross-site socket refused.');
        }
      },
    },
    (socket, request) => {
      const journeyId = request.query.journeyId ?? randomUUID();
      const conn: Connection = {
        socket,
        user: request.user,
        sessionId: request.session?.id ?? null,
        journeyId,
        channels: new Set(),
      };
      hub.add(conn);
      // A signed-in socket ends with its session: at expiry the browser hears it is signed out.
      const expires = request.session ? request.session.expiresAt.getTime() - Date.now() : null;
      const expiry =
        expires === null
          ? undefined
          : setTimeout(
              () => {
                send(conn, ['push', { self: ANONYMOUS_USER }]);
                socket.close(SOCKET_CLOSE.sessionEnded, 'Session ended');
              },
              Math.min(Math.max(0, expires), 2 ** 31 - 1),
            );
      socket.on('close', () => clearTimeout(expiry));
      const allow = tokenBucket(SOCKET_MAX_MESSAGES_PER_SECOND);
      const log = request.log.child({ socket: true, userId: conn.user.id || undefined });

      socket.on('close', () => hub.remove(conn));
      socket.on('error', () => hub.remove(conn));
      socket.on('message', (data, isBinary) => {
        if (!allow()) {
          socket.close(SOCKET_CLOSE.policy, 'Too many messages');
          return;
        }
        if (isBinary) {
          send(conn, ['refused', { message: 'Binary messages are not accepted.' }]);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.toString());
        } catch {
          send(conn, ['refused', { message: 'A message must be a JSON array [name, payload].' }]);
          return;
        }
        const result = clientMessageSchema.safeParse(parsed);
        if (!result.success) {
          send(conn, ['refused', { message: 'Unknown message or invalid payload.' }]);
          return;
        }
        const message = result.data;
        switch (message[0]) {
          case 'hit': {
            const url = pageViewUrl(message[1].url);
            if (!url) {
              send(conn, ['refused', { message: 'hit needs an absolute http(s) URL.' }]);
              return;
            }
            insertPageView(database.db, {
              journeyId: conn.journeyId,
              sessionId: conn.sessionId,
              userId: conn.user.id || null,
              hitIndex: message[1].index,
              url,
            }).catch((err: unknown) => log.error({ err }, 'page view not stored'));
            return;
          }
          case 'subscribe':
            if (hub.subscribe(conn, message[1])) send(conn, ['subscribed', message[1]]);
            else send(conn, ['refused', { message: 'You may not subscribe to this channel.', channel: message[1] }]);
            return;
          case 'unsubscribe':
            hub.unsubscribe(conn, message[1]);
            send(conn, ['unsubscribed', message[1]]);
            return;
          case 'clear':
            hub.clear(conn);
            return;
          case 'beforeunload':
            hub.clear(conn);
            socket.close(SOCKET_CLOSE.goingAway, 'Page unloading');
            return;
          case 'clientError':
            log.warn({ clientStack: redactStack(message[1]) }, 'client error');
            return;
        }
      });

      send(conn, ['push', { version: hub.version ?? deps.version }]);
      if (request.query.journeyId !== journeyId) send(conn, ['push', { journeyId }]);
    },
  );
}
