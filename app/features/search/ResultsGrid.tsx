import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from '../../lib/i18n.ts';
import type { ProfileSummary } from '#common/api-types.ts';
import { ProfileCard } from '../../components/ProfileCard.tsx';

/** Grey cards in the shape of profile cards, shown where cards are on their way (hidden from screen readers). */
export function SkeletonCards({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <div key={`skeleton-${i}`} className="col-6 col-sm-4 col-lg-3 col-xl-2" aria-hidden="true" data-testid="skeleton-card">
      <div className="profile-card">
        <div className="skeleton skeleton-photo" />
      </div>
    </div>
  ));
}

/** The cards of the first row on a phone (two columns): the page's largest paint, so their photos load first. */
const PRIORITY_CARDS = 2;

/** A grid of profile cards with a "show more" button while there are further pages. `priority`: the grid is in the first screenful. */
export function ResultsGrid(props: {
  profiles: ProfileSummary[]; hasMore: boolean; loading: boolean; onMore: () => void; testId: string; moreTestId: string; priority?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="row g-3" data-testid={props.testId}>
        {props.profiles.map((p, i) => (
          <div key={p.id} className="col-6 col-sm-4 col-lg-3 col-xl-2">
            <ProfileCard profile={p} priority={props.priority && i < PRIORITY_CARDS} />
          </div>
        ))}
        {props.loading && <SkeletonCards count={6} />}
      </div>
      {props.hasMore && (
        <div className="text-center my-4">
          <Button variant="outline-primary" onClick={props.onMore} disabled={props.loading} data-testid={props.moreTestId}>
            {props.loading ? <Spinner animation="border" size="sm" /> : t('search.load_more')}
          </Button>
        </div>
      )}
    </>
  );
}
