import { useTranslation } from '../lib/i18n.ts';
import { useEffect } from 'react';
import { Outlet, useNavigate, useParams } from 'react-router';
import type { ChatSummary } from '#common/api-types.ts';
import type { Route } from './+types/chats';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { ChatList } from '../features/chat/ChatList.tsx';
import { LAST_CHAT_KEY } from '../features/chat/Conversation.tsx';
import { toId } from '#common/ids.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  return { chats: await ctx.services.chat.list(requireMemberActor(ctx, url.pathname), ctx.chatListVersion) };
}

/** On wide screens /chats reopens the conversation opened last, if it is still in the list. */
function useReopenLastChat(active: number | null, chats: ChatSummary[]) {
  const navigate = useNavigate();
  useEffect(() => {
    if (active !== null || !window.matchMedia('(min-width: 768px)').matches) return;
    let last: { conversation_id?: unknown } | null;
    try {
      last = JSON.parse(localStorage.getItem(LAST_CHAT_KEY) ?? 'null');
    } catch {
      return;
    }
    const id = last?.conversation_id;
    if (typeof id === 'number' && chats.some((c) => c.conversation.id === id)) void navigate(`/chats/${id}`, { replace: true });
  }, [active, chats, navigate]);
}

export default function Chats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const params = useParams();
  const active = toId(params.id);
  useReopenLastChat(active, loaderData.chats);
  return (
    <div className={`chat-layout ${active ? 'has-conversation' : ''}`}>
      <ChatList initial={loaderData.chats} activeConversation={active} />
      {active ? <Outlet /> : (
        <section className="chat-main align-items-center justify-content-center text-muted">
          <p className="m-5">{t('chat.choose_conversation')}</p>
        </section>
      )}
    </div>
  );
}
