import { useTranslation } from '../lib/i18n.ts';
import { useRootData } from '../lib/root-data.ts';

/** The site's fictional_icon: an image address or a short text/emoji; a neutral mark when the site has none. */
export function FictionalIcon() {
  const { settings } = useRootData();
  const icon = settings.fictional_icon;
  if (/^(https?:\/\/|\/)/.test(icon)) return <img src={icon} alt="" width={18} height={18} className="fictional-icon" />;
  return <span className="fictional-icon" aria-hidden="true">{icon || '✱'}</span>;
}

/**
 * Marks a fictional profile with the site's icon and warning (its own text, or ours when it has none). `onDark`: in the
 * text colour around it (a lander's dark or photo background), instead of the muted grey.
 */
export function FictionalNotice({ compact = false, onDark = false }: { compact?: boolean; onDark?: boolean }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const label = settings.fictional_singular || t('profile.fictional');
  if (compact) {
    return (
      <div className={`small fictional-mark ${onDark ? 'fictional-on-dark' : 'text-secondary'}`} data-testid="fictional-mark" title={settings.fictional_warning || t('member_profile.fictional_warning')}>
        <FictionalIcon /> {label}
      </div>
    );
  }
  return (
    <div className="alert alert-warning d-flex gap-2 align-items-start py-2" role="note" data-testid="fictional-warning">
      <FictionalIcon />
      <div><strong>{label}.</strong> {settings.fictional_warning || t('member_profile.fictional_warning')}</div>
    </div>
  );
}
