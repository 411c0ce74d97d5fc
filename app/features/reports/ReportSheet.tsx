import { lazy, Suspense } from 'react';
import { useFetcher } from 'react-router';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { ReportTarget } from './report-target.ts';

/** Loaded when a sheet opens: the form and its validation are not part of the page's first load. */
const ReportForm = lazy(() => import('./ReportForm.tsx').then((m) => ({ default: m.ReportForm })));

/** The report form in a dialog, where it happens (a profile, a photo, a chat message); the page stays as it is. */
export function ReportSheet({ target, onHide }: { target: ReportTarget | null; onHide: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher({ key: target ? `report-${target.kind}-${target.profileId}-${target.contentId ?? 0}` : 'report-none' });
  const titleId = 'report-sheet-title';
  return (
    <Modal show={target !== null} onHide={onHide} centered aria-labelledby={titleId} data-testid="report-sheet">
      {target && (
        <>
          <Modal.Header closeButton closeLabel={t('reports.close')}>
            <Modal.Title id={titleId} as="h2" className="h5">{t(`reports.title_${target.kind}`, { name: target.name })}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Suspense fallback={<p className="text-body-secondary mb-0" role="status">{t('reports.loading')}</p>}>
              <ReportForm target={target} fetcher={fetcher} onClose={onHide} />
            </Suspense>
          </Modal.Body>
        </>
      )}
    </Modal>
  );
}
