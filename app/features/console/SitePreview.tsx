import { useEffect, useRef } from 'react';
import { accessibleShade, contrastText } from '#common/site-theme.ts';
import { useTranslation } from '../../lib/i18n.ts';

export interface PreviewLook {
  name: string;
  primary: string;
  secondary: string;
  dark: string;
}

const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** #rgb or #rrggbb as lower-case #rrggbb, or null for anything else (the form shows that field's error). */
export function previewColour(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (!COLOUR.test(v)) return null;
  return v.length === 4 ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v;
}

/**
 * A member page in miniature with the unsaved colours: the navigation bar in the dark colour, a profile card with its
 * button in the primary colour and its badge in the secondary one, each taken to the accessible shade the site's
 * stylesheet uses. The colours are set through the element's style object after hydration (the style policy refuses
 * style attributes, decision 052); the server renders the sample in the console's own colours.
 */
export function SitePreview({ look }: { look: PreviewLook }) {
  const { t } = useTranslation();
  const bar = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLSpanElement>(null);
  const badge = useRef<HTMLSpanElement>(null);
  const link = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const paint = (element: HTMLElement | null, colour: string, text = true) => {
      if (!element) return;
      const shade = accessibleShade(colour);
      // Bootstrap's colour utilities (bg-dark, text-white) are !important: the sample's own colours must be too.
      const set = (property: string, value: string) => (value ? element.style.setProperty(property, value, 'important') : element.style.removeProperty(property));
      set('background-color', text ? shade : '');
      set('border-color', text ? shade : '');
      set('color', text ? contrastText(shade) : shade);
    };
    paint(bar.current, look.dark);
    paint(button.current, look.primary);
    paint(badge.current, look.secondary);
    paint(link.current, look.primary, false);
  }, [look.dark, look.primary, look.secondary]);

  return (
    <figure className="border rounded overflow-hidden mb-0" data-testid="site-preview" data-primary={look.primary} data-secondary={look.secondary} data-dark={look.dark}>
      <div ref={bar} className="px-3 py-2 fw-semibold bg-dark text-white" data-testid="site-preview-bar">{look.name || '—'}</div>
      <div className="p-3 bg-body">
        <div className="card">
          <div className="card-body">
            <div className="d-flex align-items-center gap-2 mb-2">
              <span className="fw-semibold">{t('console.site.preview.member')}</span>
              <span ref={badge} className="badge bg-secondary" data-testid="site-preview-badge">{t('console.site.preview.badge')}</span>
            </div>
            <p className="mb-2 small">{t('console.site.preview.about')} <span ref={link} className="text-decoration-underline">{t('console.site.preview.link')}</span></p>
            <span ref={button} className="btn btn-primary btn-sm" data-testid="site-preview-button">{t('console.site.preview.button')}</span>
          </div>
        </div>
      </div>
      <figcaption className="visually-hidden">{t('console.site.preview.caption')}</figcaption>
    </figure>
  );
}
