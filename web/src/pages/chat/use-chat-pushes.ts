/**
 * Every chat item that reaches the store, from a socket push or an HTTP reply, handed to the page one by one. The
 * store keeps only the latest value of an area, so the page listens to each merge rather than reading the area.
 */
import type { ChatConversation, ChatMessage, ChatTyping } from '@tessera/common/support-chat';
import { useEffect, useRef } from 'react';
import { useStore } from '../../lib/store';

export interface ChatPushHandlers {
  message?(message: ChatMessage): void;
  conversation?(conversation: ChatConversation): void;
  typing?(typing: ChatTyping): void;
}

export function useChatPushes(handlers: ChatPushHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(
    () =>
      useStore.subscribe((state, previous) => {
        const now = state.areas;
        const before = previous.areas;
        if (now.chatMessage && now.chatMessage !== before.chatMessage) {
          ref.current.message?.(now.chatMessage as ChatMessage);
        }
        if (now.chatConversation && now.chatConversation !== before.chatConversation) {
          ref.current.conversation?.(now.chatConversation as ChatConversation);
        }
        if (now.chatTyping && now.chatTyping !== before.chatTyping) ref.current.typing?.(now.chatTyping as ChatTyping);
      }),
    [],
  );
}
