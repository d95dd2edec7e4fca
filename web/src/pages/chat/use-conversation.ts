/**
 * One conversation on screen: its messages (loaded, then kept current by pushes), the other side's typing
 * indicator, read marks sent while the page is visible, and sending. `side` is the viewer's side.
 */
import {
  CHAT_LIMITS,
  CHAT_TYPING,
  type ChatConversation,
  type ChatMessage,
  type ChatSide,
  chatChannel,
} from '@tessera/common/support-chat';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { socket } from '../../lib/socket';
import { useChatPushes } from './use-chat-pushes';

const byId = (a: ChatMessage, b: ChatMessage) => a.id - b.id;

function withMessage(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  return [...list, message].sort(byId);
}

export function useConversation(initial: ChatConversation, side: ChatSide) {
  const id = initial.id;
  const [conversation, setConversation] = useState(initial);
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [typingUntil, setTypingUntil] = useState(0);
  const [, tick] = useState(0);
  const lastTypingSent = useRef(0);

  useEffect(() => socket.watch(chatChannel(initial.userId)), [initial.userId]);

  useEffect(() => {
    let live = true;
    setMessages(null);
    api
      .get<{ chatMessages: ChatMessage[]; chatConversation: ChatConversation }>(`/v2/chat/conversations/${id}/messages`)
      .then((reply) => {
        if (!live) return;
        setMessages((now) => reply.chatMessages.reduce(withMessage, now ?? []));
        setHasOlder(reply.chatMessages.length === CHAT_LIMITS.page);
        setConversation(reply.chatConversation);
      })
      .catch(() => live && setMessages([]));
    return () => {
      live = false;
    };
  }, [id]);

  useChatPushes({
    message(message) {
      if (message.conversationId !== id) return;
      setMessages((list) => (list === null ? list : withMessage(list, message)));
      const fromOther = message.fromStaff !== (side === 'staff');
      if (fromOther) setTypingUntil(0);
    },
    conversation(next) {
      if (next.id === id) setConversation(next);
    },
    typing(typing) {
      if (typing.conversationId !== id || typing.side === side) return;
      setTypingUntil(Date.now() + CHAT_TYPING.showForMs);
    },
  });

  // The indicator goes away by itself when no new notice keeps it.
  useEffect(() => {
    if (typingUntil === 0) return;
    const timer = setTimeout(() => tick((n) => n + 1), Math.max(0, typingUntil - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [typingUntil]);

  // Read marks: whatever the other side wrote counts as read while this page is visible.
  const unread = side === 'staff' ? conversation.unreadByStaff : conversation.unreadByUser;
  const lastId = messages?.at(-1)?.id ?? 0;
  const readId = side === 'staff' ? conversation.staffReadId : conversation.userReadId;
  useEffect(() => {
    if (messages === null || lastId <= readId || unread === 0) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      void api.post(`/v2/chat/conversations/${id}/read`, { upTo: lastId }).catch(() => undefined);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [id, lastId, readId, unread, messages]);

  // Older pages, asked for when the first page came back full.
  const [hasOlder, setHasOlder] = useState(false);
  const loadOlder = useCallback(async () => {
    const first = messages?.[0]?.id;
    if (first === undefined) return;
    const reply = await api.get<{ chatMessages: ChatMessage[] }>(`/v2/chat/conversations/${id}/messages`, {
      before: first,
    });
    setHasOlder(reply.chatMessages.length === CHAT_LIMITS.page);
    setMessages((now) => reply.chatMessages.reduce(withMessage, now ?? []));
  }, [id, messages]);

  const send = useCallback(
    async (text: string) => {
      const reply = await api.post<{ chatMessage: ChatMessage; chatConversation: ChatConversation }>(
        `/v2/chat/conversations/${id}/messages`,
        { text },
      );
      setMessages((list) => withMessage(list ?? [], reply.chatMessage));
      setConversation(reply.chatConversation);
      lastTypingSent.current = 0;
    },
    [id],
  );

  const typed = useCallback(() => {
    if (Date.now() - lastTypingSent.current < CHAT_TYPING.sendEveryMs) return;
    lastTypingSent.current = Date.now();
    void api.post(`/v2/chat/conversations/${id}/typing`).catch(() => undefined);
  }, [id]);

  return {
    conversation,
    setConversation,
    messages,
    hasOlder,
    loadOlder,
    otherTyping: typingUntil > Date.now(),
    send,
    typed,
  };
}
