import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { useNavigate } from 'react-router';
import { COUNTRY_LANGUAGES, LANGUAGES, languageChoices, languageIso, type Language } from '#common/languages.ts';
import { chooseLanguage } from '../components/LanguageDropdown.tsx';
import { countryName } from '../lib/format.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/lang-config';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'lang_config.title', noindex: true });
}

/** A fixed day, so every language shows how it writes dates and amounts. */
const SAMPLE_DATE = new Date(Date.UTC(2026, 2, 14, 19, 30));

function LanguageButton({ code, current, onChoose, busy }: { code: Language; current: Language; onChoose: (c: Language) => void; busy: boolean }) {
  const { t } = useTranslation();
  const language = LANGUAGES.find((l) => l.code === code)!;
  const iso = languageIso(code);
  const selected = code === current;
  return (
    <Button
      variant={selected ? 'primary' : 'outline-secondary'} className="w-100 text-start d-flex justify-content-between align-items-center gap-2 py-2"
      aria-pressed={selected} disabled={busy} onClick={() => onChoose(code)} lang={code} data-testid={`lang-config-${code}`}
    >
      <span>
        <span className="fw-semibold d-block">{language.name}</span>
        <span className={`small ${selected ? '' : 'text-muted'}`}>
          {new Intl.DateTimeFormat(iso, { dateStyle: 'medium' }).format(SAMPLE_DATE)} · {new Intl.NumberFormat(iso, { style: 'currency', currency: 'EUR' }).format(1234.5)}
        </span>
      </span>
      {selected && <span className="small">{t('lang_config.current')}</span>}
    </Button>
  );
}

/** Spec route /lang-config: the languages of the visitor's country first, then every language the site speaks. */
export default function LangConfig() {
  const { t } = useTranslation();
  const { lang, languageCountry } = useRootData();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const country = languageCountry;
  const local = country && COUNTRY_LANGUAGES[country.toUpperCase()] ? languageChoices(country, lang) : [];
  const others = LANGUAGES.map((l) => l.code).filter((c) => !local.includes(c));
  const choose = async (code: Language) => {
    setBusy(true);
    setFailed(false);
    try {
      await chooseLanguage(code);
      // The next page is rendered on the server in the new language.
      await navigate('/lang-config', { replace: true });
      window.location.reload();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };
  const list = (codes: Language[]) => (
    <div className="d-grid gap-2 grid-fill-220">
      {codes.map((code) => <LanguageButton key={code} code={code} current={lang} onChoose={(c) => void choose(c)} busy={busy || !hydrated} />)}
    </div>
  );
  return (
    <div className="container py-4 max-w-860">
      <h1 className="h2">{t('lang_config.title')}</h1>
      <p className="text-muted">{t('lang_config.intro')}</p>
      {failed && <Alert variant="danger">{t('errors.server_error')}</Alert>}
      {local.length > 0 && (
        <Card className="mb-4 shadow-sm" data-testid="lang-config-country">
          <Card.Body>
            <h2 className="h5">{t('lang_config.for_country', { country: countryName(country!, lang) })}</h2>
            {list(local)}
          </Card.Body>
        </Card>
      )}
      <Card className="shadow-sm" data-testid="lang-config-all">
        <Card.Body>
          <h2 className="h5">{local.length ? t('lang_config.other') : t('lang_config.all')}</h2>
          {list(others)}
        </Card.Body>
      </Card>
    </div>
  );
}
