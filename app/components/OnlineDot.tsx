import { useTranslation } from '../lib/i18n.ts';

/**
 * The online state of a member (active within the last minutes): a green dot that says so to screen readers
 * and on hover; with `label`, the words are shown next to it. Nothing for members who are not online.
 */
export function OnlineDot({ online, label = false }: { online: boolean; label?: boolean }) {
  const { t } = useTranslation();
  if (!online) return null;
  const text = t('presence.online');
  return (
    <span className="online-state" data-testid="online" title={text}>
      <span className="online-dot" aria-hidden="true" />
      {label ? <span>{text}</span> : <span className="visually-hidden">{text}</span>}
    </span>
  );
}
