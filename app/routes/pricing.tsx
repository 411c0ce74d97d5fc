import { useTranslation } from 'react-i18next';
import type { Route } from './+types/pricing';
import { requestContext } from '../context.ts';
import { packagesFor } from '#server/payments/payment-pages.server.ts';
import { PackageList } from '../features/credits/PackageList.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  return packagesFor(context.get(requestContext));
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="container py-4">
      <h1 className="h3">{t('pricing.title')}</h1>
      <p className="text-muted">{t('pricing.lead', { count: loaderData.messageCredits })}</p>
      <PackageList packages={loaderData.packages} messageCredits={loaderData.messageCredits} />
      <p className="small text-muted mt-4">{t('pricing.premium_note')}</p>
    </div>
  );
}
