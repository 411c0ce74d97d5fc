import { NavDropdown } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LANGUAGES, languageChoices, type Language } from '#common/languages.ts';
import { api } from '../lib/api.ts';
import { useRootData } from '../root.tsx';

/** Changes the language on the server (cookie, and the account when signed in); then the page renders in it. */
export async function chooseLanguage(code: Language) {
  await api('/api/user.php', { method: 'PUT', body: { language: code } });
}

const nameOf = (code: Language) => LANGUAGES.find((l) => l.code === code)?.name ?? code;

/** The languages of the visitor's country (spec section 9), and a way to all of them at /lang-config. */
export function LanguageDropdown({ current }: { current: Language }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const choices = languageChoices(settings.geoip_country, current);
  const choose = async (code: Language) => {
    await chooseLanguage(code);
    window.location.reload();
  };
  return (
    <NavDropdown title={current.toUpperCase()} id="language-dropdown" align="end" aria-label={t('nav.language')} data-testid="language-dropdown">
      {choices.map((code) => (
        <NavDropdown.Item key={code} active={code === current} onClick={() => void choose(code)} lang={code} data-testid={`language-${code}`}>
          {nameOf(code)}
        </NavDropdown.Item>
      ))}
      {choices.length < LANGUAGES.length && (
        <>
          <NavDropdown.Divider />
          <NavDropdown.Item as={Link} to="/lang-config" data-testid="language-more">{t('lang_config.more')}</NavDropdown.Item>
        </>
      )}
    </NavDropdown>
  );
}
