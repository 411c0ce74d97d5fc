import { NavDropdown } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '#common/languages.ts';
import { api } from '../lib/api.ts';

/** Changes the language on the server (cookie, and the account when signed in), then re-renders the page in it. */
export function LanguageDropdown({ current }: { current: Language }) {
  const { t } = useTranslation();
  const choose = async (code: Language) => {
    await api('/api/user.php', { method: 'PUT', body: { language: code } });
    window.location.reload();
  };
  return (
    <NavDropdown title={current.toUpperCase()} id="language-dropdown" align="end" aria-label={t('nav.language')} data-testid="language-dropdown">
      {LANGUAGES.map((l) => (
        <NavDropdown.Item key={l.code} active={l.code === current} onClick={() => void choose(l.code)} lang={l.code}>
          {l.name}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}
