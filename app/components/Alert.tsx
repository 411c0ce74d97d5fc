import type { HTMLAttributes } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { Link, type LinkProps } from 'react-router';

type AlertProps = HTMLAttributes<HTMLDivElement> & {
  /** Bootstrap's colour name: primary, secondary, success, danger, warning, info, light or dark. */
  variant?: string;
  /** Shows a close button (named in the member's language) that calls onClose. */
  dismissible?: boolean;
  onClose?: () => void;
  'data-testid'?: string;
};

/**
 * Bootstrap's alert box. React Bootstrap's Alert brings its fade transition code to every page that may show one
 * (docs/decisions/024), and names its close button in English only; this one is markup and a translated button.
 */
function AlertBox({ variant = 'primary', dismissible = false, onClose, className, children, role = 'alert', ...rest }: AlertProps) {
  const { t } = useTranslation();
  const classes = ['alert', `alert-${variant}`, dismissible && 'alert-dismissible', className].filter(Boolean).join(' ');
  return (
    <div role={role} className={classes} {...rest}>
      {children}
      {dismissible && <button type="button" className="btn-close" aria-label={t('alerts.close')} onClick={onClose} />}
    </div>
  );
}

function AlertHeading({ as: Tag = 'h4', className, ...rest }: HTMLAttributes<HTMLHeadingElement> & { as?: 'h2' | 'h3' | 'h4' }) {
  return <Tag className={['alert-heading', className].filter(Boolean).join(' ')} {...rest} />;
}

/** A link inside an alert, in the alert's colour: a route of the app. */
function AlertLink({ className, ...rest }: LinkProps) {
  return <Link className={['alert-link', className].filter(Boolean).join(' ')} {...rest} />;
}

export const Alert = Object.assign(AlertBox, { Heading: AlertHeading, Link: AlertLink });
