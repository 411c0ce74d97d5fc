import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '../../lib/query.ts';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Camera, Gift, Trash2 } from 'lucide-react';
import type { ChatMessage, ChatPrices, ChatSummary, Gift as GiftItem, ProfileSummary } from '#common/api-types.ts';
import { CHAT_HISTORY_LIMIT } from '#common/chat-prices.ts';
import { POLL_INTERVAL_MS } from '#common/constants.ts';
import type { LiveEvent } from '#common/live.ts';
import { api, ApiError, newIdempotencyKey } from '../../lib/api.ts';
import { postForm } from '../../lib/upload.ts';
import { useSetUser, useUser } from '../../lib/user.ts';
import { LIVE_WINDOW_EVENT } from '../../lib/live.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';
import { FictionalNotice } from '../../components/FictionalNotice.tsx';
import { ConfirmSend, type PendingSend } from './ConfirmSend.tsx';
import { GiftPicker } from './GiftPicker.tsx';
import { Icebreaker } from './Icebreaker.tsx';
import { MessageBubble } from './MessageBubble.tsx';
import { ReportSheet } from '../reports/ReportSheet.tsx';
import { usePriceLabel } from './prices.ts';
import { useViewingConversation } from './use-viewing.ts';
import { useArrivals } from './use-arrivals.ts';
import { OnlineDot } from '../../components/OnlineDot.tsx';
import { withReturn } from '../../lib/return-path.ts';

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

/** Whether the device has a connection (the browser's word for it); true while the server renders. */
function useConnected() {
  const [connected, setConnected] = useState(true);
  useEffect(() => {
    const update = () => setConnected(navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return connected;
}

/**
 * The unsent text of a conversation, kept in the browser so that a reload, a lost connection or a purchase of
 * credits does not lose it; per member too, so that another member signing in on the same device never sees it.
 */
const draftKey = (memberId: number, profileId: number) => `chat-draft:${memberId}:${profileId}`;
function keepDraft(key: string, text: string) {
  try {
    if (text) localStorage.setItem(key, text);
    else localStorage.removeItem(key);
  } catch {
    // storage full or off: the draft lives as long as the page
  }
}

/** A text on its way: shown under the conversation as sending, or as failed with a way to send it again. */
interface Outgoing { key: string; text: string; state: 'sending' | 'failed' }

/** What the chat pages' loaders give (see conversationPageData). */
export interface ConversationPage {
  profile: ProfileSummary;
  messages: ChatMessage[];
  /** Older messages were left out (the chat history limit). */
  truncated: boolean;
  prices: ChatPrices;
  gifts: GiftItem[];
  maxLength: number;
  /** Messages this member may still send for free (before buying credits). */
  freeMessagesLeft: number;
  niche: number;
  /** The other member deleted their account: their conversation stays readable, the composer is off. */
  left?: boolean;
}

/** The conversation opened last, so that /chats reopens it on wide screens (spec: last opened chat). */
export const LAST_CHAT_KEY = 'last-chat';

type SendResult = { message: ChatMessage; credits: number; free_messages_left?: number };

export function Conversation({ page }: { page: ConversationPage }) {
  const { profile, messages: initialMessages, prices, gifts, maxLength } = page;
  const [freeLeft, setFreeLeft] = useState(page.freeMessagesLeft);
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const setUser = useSetUser();
  const priceLabel = usePriceLabel(prices);
  const [text, setText] = useState('');
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);
  const connected = useConnected();
  const [error, setError] = useState<ApiError | null>(null);
  const [shortfall, setShortfall] = useState(1);
  const user = useUser();
  const [sending, setSending] = useState(false);
  const [giftsOpen, setGiftsOpen] = useState(false);
  // A picked gift or photo waits here, with its price shown, until the member sends it.
  const [pending, setPending] = useState<PendingSend | null>(null);
  const [reporting, setReporting] = useState<ChatMessage | null>(null);
  // Opened after hydration: the server renders no modal.
  const [icebreaker, setIcebreaker] = useState(false);
  const startsEmpty = initialMessages.length === 0;
  // The profile page's gift action opens the conversation with the gift picker (?gift=1): the gift starts the
  // conversation or adds to it, exactly as the picker here does. The address loses the flag, so a reload does not reopen it.
  const [params] = useSearchParams();
  const left = Boolean(page.left);
  const giftFirst = params.get('gift') === '1' && gifts.length > 0 && !left;
  useEffect(() => {
    if (giftFirst) {
      setGiftsOpen(true);
      const url = new URL(window.location.href);
      url.searchParams.delete('gift');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }
    setIcebreaker(startsEmpty && !giftFirst && !left);
  }, [startsEmpty, giftFirst, left]);
  const draftStore = draftKey(user?.id ?? 0, profile.id);
  // A purchase begun here (too few credits, premium for more conversations) comes back here after paying, to the draft kept above.
  const here = useLocation().pathname;
  // The draft comes back after hydration (the server knows nothing of it); an opener chosen meanwhile stays.
  useEffect(() => {
    try {
      const draft = localStorage.getItem(draftStore);
      if (draft) setText((current) => current || draft);
    } catch {
      // storage off: no draft to restore
    }
  }, [draftStore]);
  useEffect(() => keepDraft(draftStore, text), [draftStore, text]);

  // One key per paid action: the automatic retries of one send reuse it, so the server charges once.
  const keyRef = useRef<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const queryKey = ['messages', profile.id];

  const { data } = useQuery({
    queryKey,
    queryFn: async () => await api<{ messages: ChatMessage[]; truncated: boolean; conversation: { id: number } | null }>(`/api/messages.php?profile=${profile.id}`),
    initialData: { messages: initialMessages, truncated: page.truncated, conversation: null },
    refetchInterval: () => (liveIsOpen() ? LIVE_CONVERSATION_POLL_MS : OPEN_CONVERSATION_POLL_MS),
    staleTime: 2_000,
  });
  const { messages } = data;
  const arrived = useArrivals(profile.id, messages.map((m) => m.id));
  const conversationId = data.conversation?.id ?? messages[0]?.conversation_id ?? null;
  useViewingConversation(conversationId);

  useEffect(() => {
    if (conversationId === null) return;
    try {
      localStorage.setItem(LAST_CHAT_KEY, JSON.stringify({ profile_id: profile.id, conversation_id: conversationId, date: Date.now() }));
    } catch {
      // storage full or off: nothing to remember
    }
  }, [profile.id, conversationId]);

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

  /** Runs one paid send (text, gift or photo) with its idempotency key, and shows what it did or why not. */
  const paidSend = async (cost: number, run: (key: string) => Promise<SendResult>, ownKey?: string): Promise<'sent' | 'refused' | 'failed'> => {
    if (sending) return 'refused';
    // Short of credits: the credits page marks the smallest bundle that covers this action.
    setShortfall(Math.max(1, cost - (user?.credits ?? 0)));
    keyRef.current ??= newIdempotencyKey();
    setSending(true);
    setError(null);
    try {
      const result = await run(ownKey ?? keyRef.current);
      if (!ownKey) keyRef.current = null;
      client.setQueryData<typeof data>(queryKey, (d) => (d && !d.messages.some((m) => m.id === result.message.id)
        ? { ...d, messages: [...d.messages, result.message], conversation: { id: result.message.conversation_id } } : d));
      setUser((u) => ({ ...u, credits: result.credits }));
      if (result.free_messages_left !== undefined) setFreeLeft(result.free_messages_left);
      void client.invalidateQueries({ queryKey: ['chats'] });
      return 'sent';
    } catch (err) {
      const apiError = err instanceof ApiError ? err : new ApiError(0, 'server_error', t('errors.server_error'));
      // A refused send was not made: the next attempt is a new one with a new key.
      const refused = apiError.status > 0 && apiError.status < 500;
      if (refused && !ownKey) keyRef.current = null;
      // A text without an answer shows as failed in the conversation, with its own way to try again.
      if (refused || !ownKey) setError(apiError);
      return refused ? 'refused' : 'failed';
    } finally {
      setSending(false);
    }
  };

  /**
   * A text goes out at once: the composer empties and the text shows as sending until the server has it. Without an
   * answer (no connection, a server error) it stays as failed, with its key, and "Try again" sends the same one; a
   * refusal (too few credits, the spend cap) puts the text back into the composer, with the reason.
   */
  const sendText = async (item: Outgoing) => {
    setOutgoing((list) => [...list.filter((o) => o.key !== item.key), { ...item, state: 'sending' }]);
    const sent = await paidSend(prices.message, () => api<SendResult>('/api/messages.php', { method: 'POST', body: { profile_id: profile.id, text: item.text }, idempotencyKey: item.key }), item.key);
    if (sent === 'sent') setOutgoing((list) => list.filter((o) => o.key !== item.key));
    else if (sent === 'failed') setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, state: 'failed' } : o)));
    else {
      setOutgoing((list) => list.filter((o) => o.key !== item.key));
      setText((current) => current || item.text);
    }
  };

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body || sending) return;
    setText('');
    await sendText({ key: newIdempotencyKey(), text: body, state: 'sending' });
  };

  // Picking a gift or a photo charges nothing: the confirmation shows its price, and its Send sends it.
  const pickGift = (gift: GiftItem) => {
    setGiftsOpen(false);
    setPending({ kind: 'gift', gift, credits: gift.credits ?? prices.gift });
  };

  const pickPhoto = (file: File | undefined) => {
    if (file) setPending({ kind: 'photo', file, credits: prices.photo });
  };

  const cancelPending = () => {
    setPending(null);
    if (photoInput.current) photoInput.current.value = '';
  };

  // The confirmation closes whatever the answer: a refusal (too few credits, the spend cap) shows in the
  // conversation, with its way on, where the dialog would cover it.
  const sendPending = async () => {
    if (!pending) return;
    if (pending.kind === 'gift') {
      const giftId = pending.gift.id;
      await paidSend(pending.credits, (key) => api<SendResult>('/api/gift.php', { method: 'POST', body: { profile_id: profile.id, gift_id: giftId }, idempotencyKey: key }));
    } else {
      const form = new FormData();
      form.set('profile_id', String(profile.id));
      form.set('photo', pending.file);
      await paidSend(pending.credits, (key) => postForm<SendResult>('/api/chat-photo.php', form, { idempotencyKey: key, fallbackMessage: t('errors.server_error') }));
    }
    cancelPending();
  };

  // Removed from the list at once, then on the server; on failure the member is told and the list reloads.
  const removeConversation = async () => {
    if (!window.confirm(t('chat.confirm_delete'))) return;
    client.setQueryData<ChatSummary[]>(['chats'], (list) => list?.filter((c) => c.profile.id !== profile.id));
    try {
      await api('/api/chat.php', { method: 'DELETE', body: { profile_id: profile.id } });
      void navigate('/chats');
    } catch (err) {
      window.alert(err instanceof ApiError ? err.message : t('errors.server_error'));
      await client.invalidateQueries({ queryKey: ['chats'] });
    }
  };

  const messagePrice = freeLeft > 0 ? t('chat.free') : priceLabel(prices.message);
  return (
    <section className="chat-main" data-testid="conversation">
      <header className="d-flex align-items-center gap-2 p-2 border-bottom bg-white">
        <Link to="/chats" className="btn btn-link d-md-none" aria-label={t('chat.back')}>‹</Link>
        {/* A member who has left has no profile to open any more. */}
        {(() => {
          const who = (
            <>
              <ProfilePhoto profile={profile} className="chat-avatar" />
              <span className="min-w-0">
                <strong className="d-block text-truncate"><OnlineDot online={connected && profile.online} />{profile.name}, {profile.age}</strong>
                {profile.fictional && <FictionalNotice compact />}
                {left && <span className="badge text-bg-secondary">{t('chat.left_badge')}</span>}
              </span>
            </>
          );
          return left
            ? <div className="d-flex align-items-center gap-2 min-w-0">{who}</div>
            : <Link to={`/members/${profile.id}`} className="d-flex align-items-center gap-2 text-reset min-w-0">{who}</Link>;
        })()}
        {conversationId !== null && (
          <Button variant="link" className="ms-auto text-muted d-flex align-items-center gap-1" onClick={() => void removeConversation()} aria-label={t('chat.delete')} data-testid="delete-conversation">
            <Trash2 aria-hidden="true" size={18} /><span className="d-none d-md-inline">{t('chat.delete')}</span>
          </Button>
        )}
      </header>
      <div className="chat-messages" data-testid="messages">
        <div className="chat-column">
          {data.truncated && <Alert variant="info" className="small py-2" data-testid="history-limit">{t('chat.history_limit', { count: CHAT_HISTORY_LIMIT })}</Alert>}
          {messages.length === 0 && <p className="text-center text-muted my-5">{t('chat.start', { name: profile.name })}</p>}
          {messages.map((m) => <MessageBubble key={m.id} message={m} arrived={!m.from_me && arrived(m.id)} otherName={profile.name} profileId={profile.id} onReport={setReporting} />)}
          {outgoing.map((o) => (
            <div key={o.key} className="chat-bubble me chat-bubble-arrived" data-testid="outgoing-message" data-state={o.state}>
              {o.text}
              <div className="small text-white-50">
                {o.state === 'sending' ? t('chat.sending') : (
                  <>
                    {t('chat.not_sent')}
                    <Button variant="light" size="sm" className="ms-2 py-0" disabled={sending} onClick={() => void sendText(o)} data-testid="retry-message">{t('chat.retry')}</Button>
                  </>
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
            <Alert variant={['insufficient_credits', 'free_conversation_limit', 'daily_spend_cap_reached', 'monthly_spend_cap_reached'].includes(error.code) ? 'warning' : 'danger'} className="d-flex align-items-center justify-content-between gap-2" data-testid="send-error" data-code={error.code}>
              <span>{error.message}</span>
              {error.code === 'insufficient_credits' && <Link to={withReturn(`/credits?need=${shortfall}`, here)} className="btn btn-secondary btn-sm text-nowrap" data-testid="buy-credits">{t('chat.buy_credits')}</Link>}
              {(error.code === 'daily_spend_cap_reached' || error.code === 'monthly_spend_cap_reached') && (
                <Link to="/transactions" className="btn btn-outline-secondary btn-sm text-nowrap" data-testid="spend-cap-link">{t('chat.spend_cap_settings')}</Link>
              )}
              {error.code === 'free_conversation_limit' && <Link to={withReturn('/premium', here)} className="btn btn-secondary btn-sm" data-testid="get-premium">{t('nav.get_premium')}</Link>}
            </Alert>
          )}
          {!connected && <Alert variant="warning" className="py-2" data-testid="offline-banner" role="status">{t('chat.offline')}</Alert>}
          {left && <Alert variant="secondary" data-testid="member-left">{t('chat.member_left', { name: profile.name })}</Alert>}
          <Form onSubmit={send} className="d-flex gap-2 align-items-end" data-testid="composer">
            <div className="d-flex flex-column gap-1">
              <Button variant="outline-secondary" size="sm" onClick={() => setGiftsOpen(true)} disabled={sending || left} aria-label={t('chat.gift')} title={`${t('chat.gift')} (${priceLabel(prices.gift)})`} data-testid="open-gifts"><Gift aria-hidden="true" size={18} /></Button>
              <Button variant="outline-secondary" size="sm" onClick={() => photoInput.current?.click()} disabled={sending || left} aria-label={`${t('chat.photo')} (${priceLabel(prices.photo)})`} title={`${t('chat.photo')} (${priceLabel(prices.photo)})`} data-testid="attach-photo"><Camera aria-hidden="true" size={18} /></Button>
              <input ref={photoInput} type="file" accept="image/*" hidden onChange={(e) => pickPhoto(e.target.files?.[0])} data-testid="photo-input" />
            </div>
            <Form.Control
              ref={input} as="textarea" rows={2} value={text} maxLength={maxLength} onChange={(e) => onInput(e.target.value)} disabled={left}
              onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); void send(e); } }}
              placeholder={t('chat.placeholder')} aria-label={t('chat.placeholder')} data-testid="message-input"
            />
            <Button type="submit" disabled={sending || left || !text.trim()} className="chat-send" data-testid="send-button">
              {t('chat.send')}
              <small className="d-block chat-send-price" data-testid="message-cost">{messagePrice}</small>
            </Button>
          </Form>
          {freeLeft > 0 && <small className="text-muted" data-testid="free-left">{t('chat.free_left', { count: freeLeft })}</small>}
        </div>
      </div>
      <GiftPicker
        show={giftsOpen} gifts={gifts} name={profile.name} price={prices.gift} priceLabel={priceLabel} busy={sending}
        onPick={pickGift} onClose={() => setGiftsOpen(false)}
      />
      <ConfirmSend pending={pending} name={profile.name} priceLabel={priceLabel} busy={sending} onSend={() => void sendPending()} onCancel={cancelPending} />
      <ReportSheet
        target={reporting ? { profileId: profile.id, name: profile.name, kind: 'message', contentId: reporting.id } : null}
        onHide={() => setReporting(null)}
      />
      <Icebreaker
        show={icebreaker} niche={page.niche} name={profile.name} onClose={() => setIcebreaker(false)}
        onPick={(suggestion) => {
          setIcebreaker(false);
          setText(suggestion);
          setTimeout(() => input.current?.focus(), 0);
        }}
      />
    </section>
  );
}
