import { COUNTRIES } from '#common/constants.ts';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';

const TEXTS = ['name', 'address', 'city', 'kvk', 'supportPhone'] as const;
const LISTS = ['vatNumbers', 'tradenames'] as const;

type Field = { name: string; initialValue?: unknown; errors?: string[] };

/** A company's fields (companySchema), the same on the new company's form and on a company's page. */
export function CompanyFields({ fields, prefix }: { fields: Record<string, Field>; prefix: string }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      {TEXTS.map((name) => (
        <FormField key={name} id={`${prefix}-${name}`} className="col-12 col-md-6 mb-3" label={t(`console.company.fields.${name}`)} field={fields[name]} />
      ))}
      <FormField id={`${prefix}-country`} as="select" className="col-12 col-md-6 mb-3" label={t('console.company.fields.country')} field={fields.country}>
        {COUNTRIES.map((c) => <option key={c} value={c}>{t(`countries.${c}`)}</option>)}
      </FormField>
      {LISTS.map((name) => (
        <FormField
          key={name} id={`${prefix}-${name}`} as="textarea" rows={2} className="col-12 col-md-6 mb-3" label={t(`console.company.fields.${name}`)}
          description={t('console.company.one_a_line')} field={fields[name]}
        />
      ))}
      <FormField
        id={`${prefix}-deleteDiscount`} type="number" className="col-12 col-md-6 mb-3" label={t('console.company.fields.deleteDiscount')}
        description={t('console.company.retention_help')} field={fields.deleteDiscount}
      />
    </div>
  );
}
