import { useTranslation } from '../lib/i18n.ts';

/** The first stop of the keyboard: past the bars to the page itself (`main#main`, which each layout has). */
export function SkipLink() {
  const { t } = useTranslation();
  return <a href="#main" className="visually-hidden-focusable skip-link" data-testid="skip-link">{t('nav.skip_to_content')}</a>;
}
