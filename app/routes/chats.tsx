import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import type { Route } from './+types/chats';
import { requestContext } from '../context.ts';
import { requireMemberId } from '#server/http/page-guards.server.ts';
import { ChatList } from '../features/chat/ChatList.tsx';
import { toId } from '#common/input.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const userId = requireMemberId(ctx, url.pathname);
  return { chats: await ctx.services.chat.list(userId) };
}

export default function Chats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const params = useParams();
  const active = toId(params.id);
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
