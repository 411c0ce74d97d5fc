import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { DISMISS_KEYS } from '#common/constants.ts';
import { useTranslation } from '../lib/i18n.ts';
import { useDismissals } from '../lib/dismissals.ts';
import { useRootData } from '../lib/root-data.ts';

/**
 * The adults-only warning for visitors (spec section 2). The server decides and renders it open, so it is on
 * screen before any script runs (landing pages and the home page hold their scripts until the visitor
 * interacts, docs/decisions/043); "Enter" is a form that posts while the page's code does not run yet. Skipped
 * for signed-in members, after it was dismissed (the dismissals cookie, which the root loader reads; a
 * dismissal from before the cookie, in localStorage, counts once the page runs), when the site turns it off, for
 * visitors from a country the site does not serve, and in the installed app.
 */
export function EntryWarning({ enabled, signedIn, country, countries }: { enabled: boolean; signedIn: boolean; country: string | null; countries: string[] }) {
  const { t } = useTranslation();
  const { entryWarningDismissed } = useRootData();
  const location = useLocation();
  const fromApp = new URLSearchParams(location.search).get('source') === 'app';
  const { loaded, isDismissed, dismiss } = useDismissals();
  const [hidden, setHidden] = useState(false);
  const enter = useRef<HTMLButtonElement>(null);
  const expected = enabled && !signedIn && !entryWarningDismissed && !fromApp && (!country || countries.includes(country));
  const show = expected && !hidden && !(loaded && isDismissed(DISMISS_KEYS.entryWarning));
  useEffect(() => {
    if (window.matchMedia?.('(display-mode: standalone)').matches) setHidden(true);
  }, []);
  useEffect(() => {
    if (!show) return;
    // Once the page runs, the keyboard starts in the dialog (the root keeps Tab inside an aria-modal dialog).
    enter.current?.focus();
    document.body.classList.add('modal-open');
    return () => document.body.classList.remove('modal-open');
  }, [show]);
  if (!show) return null;
  const accept = (event: React.FormEvent) => {
    event.preventDefault();
    dismiss(DISMISS_KEYS.entryWarning);
    setHidden(true);
  };
  return (
    <>
      <div className="modal d-block entry-warning" role="dialog" aria-modal="true" aria-labelledby="entry-warning-title" aria-describedby="entry-warning-body" data-testid="entry-warning">
        <div className="modal-dialog modal-dialog-centered">
          <div className="modal-content">
            <div className="modal-header">
              <h2 className="modal-title h5" id="entry-warning-title">{t('entry_warning.title')}</h2>
            </div>
            <div className="modal-body" id="entry-warning-body">{t('entry_warning.body')}</div>
            {/* Before the page's code runs (or without JavaScript) "Enter" posts, and the page comes back without the warning. */}
            <form method="post" action="/entry-warning" className="modal-footer" onSubmit={accept}>
              <input type="hidden" name="return" value={location.pathname + location.search} />
              <a className="btn btn-outline-secondary" href="https://www.google.com" rel="noreferrer">{t('entry_warning.leave')}</a>
              <button ref={enter} type="submit" className="btn btn-primary" data-testid="entry-warning-accept">{t('entry_warning.enter')}</button>
            </form>
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </>
  );
}
