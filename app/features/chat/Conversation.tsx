import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChatMessage, ChatSummary, ProfileSummary } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { POLL_INTERVAL_MS } from '#common/constants.ts';
import type { LiveEvent } from '#common/live.ts';
import { api, ApiError, newIdempotencyKey } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { useSetUser } from '../../lib/user.ts';
import { LIVE_WINDOW_EVENT } from '../../lib/live.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';

/** While the live channel is down, an open conversation looks for new messages every 10 seconds; with it, every minute. */
const OPEN_CONVERSATION_POLL_MS = 10_000;
const LIVE_CONVERSATION_POLL_MS = POLL_INTERVAL_MS;
/** A typing signal goes out at most this often, and the indicator fades this long after the last one. */
const TYPING_SEND_EVERY_MS = 3_000;
const TYPING_SHOWN_MS = 5_000;

const liveIsOpen = () => typeof document !== 'undefined' && document.documentElement.dataset.live === 'open';

/** "X is typing…": true while typing signals from that member keep arriving. */
function useTyping(profileId: number, lastMessageFromThem: number | undefined) {
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onLive = (e: Event) => {
      const event = (e as CustomEvent<LiveEvent>).detail;
      if (event.type !== 'typing' || event.profile_id !== profileId) return;
      setTyping(true);
      clearTimeout(timer);
      timer = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
    };
    window.addEventListener(LIVE_WINDOW_EVENT, onLive);
    return () => {
      window.removeEventListener(LIVE_WINDOW_EVENT, onLive);
      clearTimeout(timer);
    };
  }, [profileId]);
  // Their message arrived: they stopped typing.
  useEffect(() => setTyping(false), [lastMessageFromThem]);
  return typing;
}

/** What the chat pages' loaders give (see conversationPageData). */
export interface ConversationPage {
  profile: ProfileSummary;
  messages: ChatMessage[];
  messageCredits: number;
  maxLength: number;
  /** Messages this member may still send for free (before buying credits). */
  freeMessagesLeft: number;
}

export function Conversation({ page }: { page: ConversationPage }) {
  const { profile, messages: initialMessages, messageCredits, maxLength } = page;
  const [freeLeft, setFreeLeft] = useState(page.freeMessagesLeft);
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const setUser = useSetUser();
  const [text, setText] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [sending, setSending] = useState(false);
  // One key per message: the automatic retries of one send reuse it, so the server charges once.
  const keyRef = useRef<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const queryKey = ['messages', profile.id];

  const { data: messages } = useQuery({
    queryKey,
    queryFn: async () => (await api<{ messages: ChatMessage[] }>(`/api/messages.php?profile=${profile.id}`)).messages,
    initialData: initialMessages,
    refetchInterval: () => (liveIsOpen() ? LIVE_CONVERSATION_POLL_MS : OPEN_CONVERSATION_POLL_MS),
    staleTime: 2_000,
  });

  // Reading the conversation (loader or refetch) set its unread count to 0 on the server: the list and the badges follow.
  const newestFromThem = messages.findLast((m) => !m.from_me)?.id;
  useEffect(() => {
    client.setQueryData<ChatSummary[]>(['chats'], (list) => list?.map((c) => (c.profile.id === profile.id ? { ...c, num_unread_messages: 0 } : c)));
    void client.invalidateQueries({ queryKey: ['user'] });
  }, [client, profile.id, newestFromThem]);

  const typing = useTyping(profile.id, newestFromThem);
  const typingSentAt = useRef(0);
  const onInput = (value: string) => {
    setText(value);
    const now = Date.now();
    if (value.trim() && now - typingSentAt.current > TYPING_SEND_EVERY_MS) {
      typingSentAt.current = now;
      // A signal that gets lost costs nothing: no retries, no error shown. Refused once (the member cannot
      // be written to), it is not sent again from this page.
      void api('/api/typing.php', { method: 'POST', body: { profile_id: profile.id }, retries: 0 }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status < 500) typingSentAt.current = Number.POSITIVE_INFINITY;
      });
    }
  };

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, typing]);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body || sending) return;
    keyRef.current ??= newIdempotencyKey();
    setSending(true);
    setError(null);
    try {
      const result = await api<{ message: ChatMessage; credits: number; free_messages_left: number }>('/api/messages.php', {
        method: 'POST', body: { profile_id: profile.id, text: body }, idempotencyKey: keyRef.current,
      });
      keyRef.current = null;
      setText('');
      client.setQueryData<ChatMessage[]>(queryKey, (list) => (list?.some((m) => m.id === result.message.id) ? list : [...(list ?? []), result.message]));
      setUser((u) => ({ ...u, credits: result.credits }));
      setFreeLeft(result.free_messages_left);
      void client.invalidateQueries({ queryKey: ['chats'] });
    } catch (err) {
      const apiError = err instanceof ApiError ? err : new ApiError(0, 'server_error', t('errors.server_error'));
      // A refused message was not sent: the next attempt is a new message with a new key.
      if (apiError.status < 500) keyRef.current = null;
      setError(apiError);
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="chat-main" data-testid="conversation">
      <header className="d-flex align-items-center gap-2 p-2 border-bottom bg-white">
        <Link to="/chats" className="btn btn-link d-md-none" aria-label={t('chat.back')}>‹</Link>
        <Link to={`/members/${profile.id}`} className="d-flex align-items-center gap-2 text-reset">
          <ProfilePhoto profile={profile} className="chat-avatar" />
          <strong>{profile.name}, {profile.age}</strong>
        </Link>
      </header>
      <div className="chat-messages" data-testid="messages">
        <div className="chat-column">
          {messages.length === 0 && <p className="text-center text-muted my-5">{t('chat.start', { name: profile.name })}</p>}
          {messages.map((m) => (
            <div key={m.id} className={`chat-bubble ${m.from_me ? 'me' : 'them'}`} data-testid="message">
              {m.text}
              <div className={`small ${m.from_me ? 'text-white-50' : 'text-muted'}`}>
                {formatTime(m.created_at, i18n.language as Language)}
                {m.read !== undefined && (
                  <span className="ms-1" data-testid="read-mark" data-read={m.read} title={m.read ? t('chat.read') : t('chat.delivered')} aria-label={m.read ? t('chat.read') : t('chat.delivered')}>
                    {m.read ? '✓✓' : '✓'}
                  </span>
                )}
              </div>
            </div>
          ))}
          {typing && <p className="chat-typing text-muted small" data-testid="typing-indicator" aria-live="polite">{t('chat.typing', { name: profile.name })}</p>}
          <div ref={bottom} />
        </div>
      </div>
      <div className="border-top bg-white p-2">
        <div className="chat-column">
          {error && (
            <Alert variant={error.code === 'insufficient_credits' || error.code === 'free_conversation_limit' ? 'warning' : 'danger'} className="d-flex align-items-center justify-content-between gap-2" data-testid="send-error" data-code={error.code}>
              <span>{error.message}</span>
              {error.code === 'insufficient_credits' && <Link to="/credits" className="btn btn-secondary btn-sm" data-testid="buy-credits">{t('chat.buy_credits')}</Link>}
              {error.code === 'free_conversation_limit' && <Link to="/premium" className="btn btn-secondary btn-sm" data-testid="get-premium">{t('nav.get_premium')}</Link>}
            </Alert>
          )}
          <Form onSubmit={send} className="d-flex gap-2">
            <Form.Control
              as="textarea" rows={1} value={text} maxLength={maxLength} onChange={(e) => onInput(e.target.value)}
              onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); void send(e); } }}
              placeholder={t('chat.placeholder')} aria-label={t('chat.placeholder')} data-testid="message-input"
            />
            <Button type="submit" disabled={sending || !text.trim()} data-testid="send-button">{t('chat.send')}</Button>
          </Form>
          <small className="text-muted" data-testid="message-cost">{freeLeft > 0 ? t('chat.free_left', { count: freeLeft }) : t('chat.cost', { count: messageCredits })}</small>
        </div>
      </div>
    </section>
  );
}
