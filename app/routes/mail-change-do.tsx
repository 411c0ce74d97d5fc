import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/mail-change-do';
import { requestContext } from '../context.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  return { result: await ctx.services.lifecycle.confirmEmailChange(url.searchParams.get('token')) };
}

/** The link in the mail to the new address: the change takes effect here. */
export default function MailChangeDo({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const changed = loaderData.result === 'changed';
  return (
    <div className="container py-5 max-w-560">
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3" data-testid={changed ? 'mail-change-done' : 'mail-change-error'}>{changed ? t('mail_change.done_title') : t('mail_change.error_title')}</h1>
        {changed ? <p>{t('mail_change.done_text')}</p> : (
          <Alert variant="danger">{loaderData.result === 'taken' ? t('mail_change.taken_text') : t('mail_change.invalid_text')}</Alert>
        )}
        <Link to="/notifications" className="btn btn-primary">{t('mail_change.to_settings')}</Link>
      </Card.Body></Card>
    </div>
  );
}
