import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import { LANGUAGES, languageChoices, type Language } from '#common/languages.ts';
import { api } from '../lib/api.ts';
import { useRootData } from '../lib/root-data.ts';
import { NavMenu } from './NavMenu.tsx';

/** Changes the language on the server (cookie, and the account when signed in); then the page renders in it. */
export async function chooseLanguage(code: Language) {
  await api('/api/user.php', { method: 'PUT', body: { language: code } });
}

const nameOf = (code: Language) => LANGUAGES.find((l) => l.code === code)?.name ?? code;

/** The languages of the visitor's country (spec section 9), and a way to all of them at /lang-config. */
export function LanguageDropdown({ current }: { current: Language }) {
  const { t } = useTranslation();
  const { languageCountry } = useRootData();
  const choices = languageChoices(languageCountry, current);
  const choose = async (code: Language) => {
    await chooseLanguage(code);
    window.location.reload();
  };
  return (
    <NavMenu id="language-dropdown" title={current.toUpperCase()} label={`${t('nav.language')}: ${current.toUpperCase()}`} testId="language-dropdown">
      {choices.map((code) => (
        <button
          key={code} type="button" className={`dropdown-item${code === current ? ' active' : ''}`} aria-current={code === current || undefined}
          onClick={() => void choose(code)} lang={code} data-testid={`language-${code}`}
        >
          {nameOf(code)}
        </button>
      ))}
      {choices.length < LANGUAGES.length && (
        <>
          <hr className="dropdown-divider" />
          <Link className="dropdown-item" to="/lang-config" data-testid="language-more">{t('lang_config.more')}</Link>
        </>
      )}
    </NavMenu>
  );
}
