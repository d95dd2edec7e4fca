/**
 * Whether a staff member is connected, asked on load and every CHAT_PRESENCE_POLL_MS; null until known. A staff
 * message or typing notice arriving in between says so at once.
 */
import { CHAT_PRESENCE_POLL_MS, type ChatPresence } from '@tessera/common/support-chat';
import { useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { useChatPushes } from './use-chat-pushes';

export function useStaffOnline(): boolean | null {
  const [online, setOnline] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    const ask = () =>
      void request<{ chatPresence: ChatPresence }>('GET', '/v2/chat/presence')
        .then((reply) => live && setOnline(reply.chatPresence.staffOnline))
        .catch(() => undefined);
    ask();
    const timer = setInterval(ask, CHAT_PRESENCE_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  useChatPushes({
    message: (message) => message.fromStaff && setOnline(true),
    typing: (typing) => typing.side === 'staff' && setOnline(true),
  });
  return online;
}
