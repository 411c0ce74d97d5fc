import { useQuery, useQueryClient } from '../../lib/query.ts';
import CloseButton from 'react-bootstrap/CloseButton';
import { useTranslation } from '../../lib/i18n.ts';
import { NavLink } from 'react-router';
import type { ChatSummary } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { api, ApiError } from '../../lib/api.ts';
import { usePollInterval } from '../../lib/activity.ts';
import { capBadge } from '../../lib/badges.ts';
import { formatTime } from '../../lib/format.ts';
import { useTimeZone } from '../../lib/time-zone.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';
import { FictionalNotice } from '../../components/FictionalNotice.tsx';
import { OnlineDot } from '../../components/OnlineDot.tsx';
import { MessageCircle } from 'lucide-react';
import { EmptyState } from '../../components/EmptyState.tsx';

export function useChats(initial: ChatSummary[]) {
  const interval = usePollInterval();
  return useQuery({
    queryKey: ['chats'],
    queryFn: async () => (await api<{ chats: ChatSummary[] }>('/api/chats.php')).chats,
    initialData: initial,
    refetchInterval: interval,
    staleTime: 5_000,
  });
}

export function ChatList({ initial, activeConversation }: { initial: ChatSummary[]; activeConversation: number | null }) {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const client = useQueryClient();
  const { data: chats } = useChats(initial);
  const lastMessageText = (m: NonNullable<ChatSummary['last_message']>) =>
    m.kind === 'gift' ? t('chat.last_gift') : m.kind === 'photo' ? t('chat.last_photo') : m.text;

  // Removed from the list at once; on failure the member is told and the list reloads (spec section 4).
  const remove = async (id: number) => {
    if (!window.confirm(t('chat.confirm_delete'))) return;
    client.setQueryData<ChatSummary[]>(['chats'], (list) => list?.filter((c) => c.conversation.id !== id));
    try {
      await api('/api/chat.php', { method: 'DELETE', body: { conversation: id } });
    } catch (err) {
      window.alert(err instanceof ApiError ? err.message : t('errors.server_error'));
    }
    await client.invalidateQueries({ queryKey: ['chats'] });
    await client.invalidateQueries({ queryKey: ['user'] });
  };

  return (
    <aside className="chat-list" aria-label={t('chat.conversations')} data-testid="chat-list">
      <h1 className="h5 p-3 mb-0 border-bottom">{t('chat.conversations')}</h1>
      {chats.length === 0 && <EmptyState compact icon={MessageCircle} text={t('chat.no_conversations')} action={{ to: '/members', label: t('nav.search') }} testId="no-chats" />}
      <ul className="list-unstyled mb-0">
        {chats.map((c) => (
          <li key={c.conversation.id} className={`d-flex align-items-center border-bottom ${c.conversation.id === activeConversation ? 'active' : ''}`}>
            <NavLink to={`/chats/${c.conversation.id}`} className="d-flex gap-2 align-items-center p-2 flex-grow-1 text-reset min-w-0" data-testid="chat-item">
              <ProfilePhoto profile={c.profile} className="chat-avatar" />
              <div className="flex-grow-1 overflow-hidden">
                <div className="d-flex justify-content-between">
                  <strong className="text-truncate"><OnlineDot online={c.profile.online} />{c.profile.name}</strong>
                  {c.last_message && <small className="text-muted ms-2 flex-shrink-0">{formatTime(c.last_message.created_at, i18n.language as Language, zone)}</small>}
                </div>
                {c.profile.fictional && <FictionalNotice compact />}
                {c.left && <span className="badge text-bg-secondary" data-testid="chat-left">{t('chat.left_badge')}</span>}
                <div className="small text-muted text-truncate">
                  {c.last_message ? `${c.last_message.from_me ? `${t('chat.you')}: ` : ''}${lastMessageText(c.last_message)}` : ''}
                </div>
              </div>
              {c.num_unread_messages > 0 && <span className="badge rounded-pill badge-unread" data-testid="chat-unread">{capBadge(c.num_unread_messages)}</span>}
            </NavLink>
            <CloseButton className="me-2" aria-label={t('chat.delete')} onClick={() => void remove(c.conversation.id)} />
          </li>
        ))}
      </ul>
    </aside>
  );
}
