import { Form, Link, useNavigation } from 'react-router';
import type { Language } from '#common/languages.ts';
import { FormField } from '../../components/FormField.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';

interface Opened {
  conversation_id: number;
  site: { id: number; name: string };
  fictional: { id: number; name: string; gender: string; birth_date: string; country: string; region: string | null; about: string; attributes: Record<string, string>; notes: string | null };
  member: { id: number; name: string; age: number; country: string; about: string; attributes?: Record<string, string> };
  messages: { id: number; from_fictional: boolean; kind: string; text: string; created_at: string; removed: boolean }[];
}

/** Attributes as label: value lines. */
function Attributes({ values }: { values: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <dl className="row small mb-0">
      {Object.entries(values).map(([key, value]) => (
        <div key={key} className="col-6 d-flex gap-1"><dt className="fw-normal text-body-secondary">{t(`profile_fields.${key}`)}:</dt><dd className="mb-0">{t(`profile_values.${key}.${value}`)}</dd></div>
      ))}
    </dl>
  );
}

/**
 * A conversation the staff member holds: the fictional profile with its notes, the member as the fictional profile
 * sees them, the newest messages and the answer's form (its key makes a resent form send nothing twice).
 */
export function AnsweringConversation({ opened: o, answerKey, sent, error }: { opened: Opened; answerKey: string; sent: boolean; error?: string }) {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="card mb-4" aria-labelledby="answering-title" data-testid="answering-opened">
      <div className="card-body">
        <h2 className="h5" id="answering-title">{t('console.fictional.conversation_with', { fictional: o.fictional.name, member: o.member.name })} <span className="text-body-secondary small">({o.site.name})</span></h2>
        <div className="row g-3">
          <div className="col-12 col-lg-3" data-testid="answering-fictional">
            <h3 className="h6">{t('console.fictional.as_profile', { name: o.fictional.name })}</h3>
            <p className="small mb-1">{t(`gender.${o.fictional.gender}`)} · {o.fictional.birth_date} · {o.fictional.region ?? o.fictional.country}</p>
            <Attributes values={o.fictional.attributes} />
            {o.fictional.about && <p className="small text-break mt-2">{o.fictional.about}</p>}
            <h4 className="h6 mt-2">{t('console.fictional.notes')}</h4>
            <p className="small text-break" data-testid="answering-notes">{o.fictional.notes === null ? t('console.fictional.notes_hidden') : (o.fictional.notes || t('console.fictional.no_notes'))}</p>
          </div>
          <div className="col-12 col-lg-6">
            <ol className="list-unstyled" aria-label={t('console.conversation.messages')} data-testid="answering-messages">
              {o.messages.map((m) => (
                <li key={m.id} className={`card mb-2 ${m.from_fictional ? 'ms-5 border-primary' : 'me-5'}`}>
                  <div className="card-body py-2">
                    <div className="small text-body-secondary">{m.from_fictional ? o.fictional.name : o.member.name} · {formatDateTime(m.created_at, lang)}</div>
                    <p className="mb-0 text-break">{m.removed ? t('console.conversation.removed') : m.kind === 'text' ? m.text : t(`console.conversation.kind_${m.kind}`)}</p>
                  </div>
                </li>
              ))}
            </ol>
            {sent && <div className="alert alert-success" role="status" data-testid="answering-sent">{t('console.fictional.sent')}</div>}
            <Form method="post" data-testid="answering-form">
              <input type="hidden" name="intent" value="answer" />
              <input type="hidden" name="id" value={o.conversation_id} />
              <input type="hidden" name="key" value={answerKey} />
              <FormField as="textarea" id="answering-text" name="text" label={t('console.fictional.answer_as', { name: o.fictional.name })} rows={3} required error={error} />
              <button type="submit" className="btn btn-primary mt-2" disabled={busy} data-testid="answering-send">{t('console.fictional.send')}</button>
            </Form>
          </div>
          <div className="col-12 col-lg-3" data-testid="answering-member">
            <h3 className="h6"><Link to={`/console/members/${o.member.id}`}>{o.member.name}</Link></h3>
            <p className="small mb-1">{o.member.age} · {o.member.country}</p>
            {o.member.attributes && <Attributes values={o.member.attributes} />}
            {o.member.about && <p className="small text-break mt-2">{o.member.about}</p>}
          </div>
        </div>
      </div>
    </section>
  );
}
