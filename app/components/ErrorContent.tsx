import { useTranslation } from '../lib/i18n.ts';
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { unavailableError } from '../lib/unavailable.ts';

/**
 * The page of an error: its status, the message (or "Error"), and on a 404 the way back home. A page that could not
 * load because a service was away (503) says so and offers to try again, which reloads it. A message is one a page
 * threw as text for the member; the HTTP reason phrase React Router fills in ("Internal Server Error" for any status
 * a page throws without one, in English) and its own internal errors are no message for them.
 */
export function ErrorContent() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const unavailable = unavailableError(error);
  if (unavailable) {
    return (
      <div className="container py-5 text-center" data-status={503} data-testid="error-page">
        <h1 className="display-4">503</h1>
        <p className="lead">{unavailable.message || t('errors.unavailable')}</p>
        <a className="btn btn-primary" href={pathname + search}>{t('error_page.try_again')}</a>
      </div>
    );
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = notFound
    ? t('error_page.not_found')
    : isRouteErrorResponse(error) && typeof error.data === 'string' && error.data.trim() !== ''
      ? error.data
      : error instanceof Error && import.meta.env.DEV
        ? error.message
        : t('error_page.error');
  return (
    <div className="container py-5 text-center" data-status={status} data-testid="error-page">
      <h1 className="display-4">{status}</h1>
      <p className="lead">{message}</p>
      <Link className="btn btn-primary" to="/">{notFound ? t('error_page.back_home') : t('error_page.go_home')}</Link>
    </div>
  );
}
