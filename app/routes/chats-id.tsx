import { data } from 'react-router';
import type { Route } from './+types/chats-id';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { Conversation } from '../features/chat/Conversation.tsx';
import { toId } from '#common/ids.ts';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  const convId = toId(params.id);
  if (convId === null) throw data(null, { status: 404 });
  const { profileId } = await orNotFound(ctx.services.chat.read(member, convId));
  // The opening of GET /api/messages.php?profile= and the terms of GET /api/gifts.php.
  const [opened, terms] = await Promise.all([orNotFound(ctx.services.chat.openWith(member, profileId, 0)), ctx.services.chat.terms(member)]);
  return { ...opened, ...terms };
}

export default function ChatConversation({ loaderData }: Route.ComponentProps) {
  return (
    <Conversation key={loaderData.profile.id} page={loaderData} />
  );
}
