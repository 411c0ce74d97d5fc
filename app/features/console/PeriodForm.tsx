import { Form, useNavigation } from 'react-router';
import { FormField } from '../../components/FormField.tsx';

/**
 * A console report's GET form: the period's first and last day, the screen's own fields (`children`), the site (or
 * every site the staff member may see), and the button with the screen's own links (`actions`).
 */
export function PeriodForm({ idPrefix, labels, from, to, siteId, sites, children, actions }: {
  idPrefix: string;
  labels: { period: string; from: string; to: string; site: string; allSites: string; apply: string };
  from: string; to: string; siteId: number | null;
  sites: { id: number; name: string; domain: string }[];
  children?: React.ReactNode; actions?: React.ReactNode;
}) {
  const busy = useNavigation().state !== 'idle';
  return (
    <Form method="get" className="row g-2 align-items-end mb-3" aria-label={labels.period} data-testid={`${idPrefix}-filters`}>
      <FormField id={`${idPrefix}-from`} name="from" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={labels.from} defaultValue={from} required />
      <FormField id={`${idPrefix}-to`} name="to" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={labels.to} defaultValue={to} required />
      {children}
      <FormField as="select" id={`${idPrefix}-site`} name="site" className="col-12 col-md-3" controlClassName="form-select-sm" label={labels.site} defaultValue={siteId ?? ''}>
        <option value="">{labels.allSites}</option>
        {sites.map((site) => <option key={site.id} value={site.id}>{site.name} ({site.domain})</option>)}
      </FormField>
      <div className="col-auto d-flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid={`${idPrefix}-apply`}>{labels.apply}</button>
        {actions}
      </div>
    </Form>
  );
}
