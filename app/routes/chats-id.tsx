import { data } from 'react-router';
import type { Route } from './+types/chats-id';
import { requestContext } from '../context.ts';
import { conversationPageData } from '#server/chat/chat-pages.server.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { Conversation } from '../features/chat/Conversation.tsx';
import { toId } from '#common/ids.ts';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  const convId = toId(params.id);
  if (convId === null) throw data(null, { status: 404 });
  const { profileId } = await orNotFound(ctx.services.chat.read(member, convId));
  return conversationPageData(ctx, profileId);
}

export default function ChatConversation({ loaderData }: Route.ComponentProps) {
  return (
    <Conversation key={loaderData.profile.id} page={loaderData} />
  );
}
