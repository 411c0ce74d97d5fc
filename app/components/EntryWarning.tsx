import { useEffect, useState } from 'react';
import { Button } from 'react-bootstrap';
import { Modal } from './Modal.tsx';
import { useTranslation } from '../lib/i18n.ts';

const KEY = 'hide-site-entry-warning';

/**
 * The adults-only warning for visitors (spec section 2). Skipped for installed apps, signed-in members,
 * after it was dismissed, when the site turns it off, or when the visitor's country is not one of the site's.
 */
export function EntryWarning({ enabled, signedIn, country, countries }: { enabled: boolean; signedIn: boolean; country: string | null; countries: string[] }) {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  useEffect(() => {
    const installed = window.matchMedia?.('(display-mode: standalone)').matches;
    const dismissed = Boolean(localStorage.getItem(KEY));
    const countryAllowed = !country || countries.includes(country);
    setShow(enabled && !signedIn && !installed && !dismissed && countryAllowed);
  }, [enabled, signedIn, country, countries]);
  const accept = () => {
    localStorage.setItem(KEY, String(Math.floor(Date.now() / 1000)));
    setShow(false);
  };
  return (
    <Modal show={show} backdrop="static" keyboard={false} centered aria-labelledby="entry-warning-title" data-testid="entry-warning">
      <Modal.Header>
        <Modal.Title id="entry-warning-title" as="h2" className="h5">{t('entry_warning.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{t('entry_warning.body')}</Modal.Body>
      <Modal.Footer>
        <a className="btn btn-outline-secondary" href="https://www.google.com" rel="noreferrer">{t('entry_warning.leave')}</a>
        <Button variant="primary" onClick={accept} data-testid="entry-warning-accept">{t('entry_warning.enter')}</Button>
      </Modal.Footer>
    </Modal>
  );
}
