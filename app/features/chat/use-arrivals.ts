import { useState } from 'react';

/**
 * Which messages arrived while the conversation was open: those its first render showed stand still, and a later one
 * (their reply, a message that came in live) gets the arrival motion (chat.scss). A conversation opened anew starts
 * over, so reopening one never replays its history.
 */
export function useArrivals(conversation: number, ids: readonly number[]): (id: number) => boolean {
  const [shown, setShown] = useState(() => ({ conversation, ids: new Set(ids) }));
  let current = shown;
  // Another conversation in the same place (the list beside it on a desktop): what it shows now is its history.
  if (shown.conversation !== conversation) {
    current = { conversation, ids: new Set(ids) };
    setShown(current);
  }
  return (id) => !current.ids.has(id);
}
