import { useEffect } from 'react';
import { api } from '../../lib/api.ts';

/** Repeated well within the server's 45 s, so the report never lapses while the conversation is on screen. */
const REPEAT_MS = 20_000;

/**
 * Tells the server which conversation is on screen, so its new messages send no push or e-mail
 * meanwhile. Repeated while the tab is visible; withdrawn when the tab hides or the conversation closes.
 */
export function useViewingConversation(conversationId: number | null) {
  useEffect(() => {
    if (conversationId === null) return undefined;
    const report = (conversation: number | null) => {
      void api('/api/viewing.php', { method: 'POST', body: { conversation }, retries: 0 }).catch(() => undefined);
    };
    const onVisibility = () => report(document.visibilityState === 'visible' ? conversationId : null);
    onVisibility();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') report(conversationId);
    }, REPEAT_MS);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      report(null);
    };
  }, [conversationId]);
}
