import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import { useRootData } from '../lib/root-data.ts';

/** Where the activation link lands when it worked. */
export default function ActivateDone() {
  const { t } = useTranslation();
  const { user } = useRootData();
  return (
    <div className="container py-5 max-w-560">
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3" data-testid="activate-done">{t('activate.done_title')}</h1>
        <p>{t('activate.done_text')}</p>
        <Link to={user ? '/members' : '/login'} className="btn btn-primary">{user ? t('activate.to_members') : t('activate.to_login')}</Link>
      </Card.Body></Card>
    </div>
  );
}
