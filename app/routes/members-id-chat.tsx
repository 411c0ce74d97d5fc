import { data } from 'react-router';
import type { Route } from './+types/members-id-chat';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { ChatList } from '../features/chat/ChatList.tsx';
import { Conversation } from '../features/chat/Conversation.tsx';
import { toId } from '#common/ids.ts';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  const profileId = toId(params.id);
  if (profileId === null || profileId === member.userId) throw data(null, { status: 404 });
  // The opening of GET /api/messages.php?profile= and the terms of GET /api/gifts.php, with the chat list beside them.
  const [opened, terms, chats] = await Promise.all([
    orNotFound(ctx.services.chat.openWith(member, profileId, 0)), ctx.services.chat.terms(member), ctx.services.chat.list(member, ctx.chatListVersion),
  ]);
  return { ...opened, ...terms, chats };
}

export default function MemberChat({ loaderData }: Route.ComponentProps) {
  return (
    <div className="chat-layout has-conversation">
      <ChatList initial={loaderData.chats} activeConversation={loaderData.conversationId} />
      <Conversation key={loaderData.profile.id} page={loaderData} />
    </div>
  );
}
