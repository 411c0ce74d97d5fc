import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { wordFilterFormSchema } from '#common/chat.ts';
import { AppForm, useAppForm } from '../../lib/forms.tsx';
import { useHydrated } from '../../lib/hydrated.ts';

/**
 * The member's word filter: messages containing one of these words or phrases are hidden from them
 * and cost their sender nothing. One form: the words shown, a word to add, and each word's × button
 * that sends it as the word to remove; the shared schema checks the list that results.
 */
export function WordFilter({ words }: { words: string[] }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [entry, setEntry] = useState('');
  const { form, fields, busy, done } = useAppForm(wordFilterFormSchema, { intent: 'word-filter' });
  // The schema names the entry of the list it refused ("word_filter[3]"): the message is the form's.
  const error = form.errors?.[0] ?? Object.values(form.allErrors).flat()[0];
  const [saved, setSaved] = useState(done);
  // A saved word empties the input (React's pattern for state that follows an answer: set it while rendering).
  if (saved !== done) {
    setSaved(done);
    if (done) setEntry('');
  }

  return (
    <Card as="section" className="mb-4" aria-labelledby="word-filter-heading" data-testid="word-filter">
      <Card.Body>
        <h2 className="h5" id="word-filter-heading">{t('notifications.word_filter.heading')}</h2>
        <p className="text-muted small">{t('notifications.word_filter.help')}</p>
        {error && <Alert variant="danger" className="py-2" id="word-filter-error" data-testid="word-filter-error">{error}</Alert>}
        <AppForm form={form} intent="word-filter">
          {words.map((w) => <input key={w} type="hidden" name={fields.word_filter.name} value={w} />)}
          {/* The message above the form says what is wrong with the word; the input points there. */}
          <FormField
            id="word-filter-word" as="custom" className="mb-2" label={t('notifications.word_filter.placeholder')} labelClassName="visually-hidden"
            error={fields.word.errors?.[0] ?? null} errorShownIn="word-filter-error"
          >
            {({ isInvalid: _, ...control }) => (
              <InputGroup>
                <Form.Control
                  {...control} name={fields.word.name} value={entry} onChange={(e) => setEntry(e.target.value)} maxLength={60}
                  placeholder={t('notifications.word_filter.placeholder')} data-testid="word-filter-input"
                />
                {/* Disabled while empty only once the page runs: without JavaScript the state never updates. */}
                <Button type="submit" variant="outline-primary" disabled={busy || (hydrated && !entry.trim())} data-testid="word-filter-add">{t('notifications.word_filter.add')}</Button>
              </InputGroup>
            )}
          </FormField>
          {words.length === 0 ? <p className="small text-muted mb-0">{t('notifications.word_filter.empty')}</p> : (
            <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
              {words.map((w) => (
                <li key={w}>
                  <Badge bg="light" text="dark" className="border d-inline-flex align-items-center gap-1 fs-6 fw-normal" data-testid="word-filter-word">
                    {w}
                    <Button
                      type="submit" name={fields.remove.name} value={w} variant="link" size="sm" className="p-0 text-muted text-decoration-none" disabled={busy}
                      aria-label={t('notifications.word_filter.remove', { word: w })}
                    >×</Button>
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </AppForm>
      </Card.Body>
    </Card>
  );
}
