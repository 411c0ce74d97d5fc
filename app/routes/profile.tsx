import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from '../lib/i18n.ts';
import { Link, useRevalidator } from 'react-router';
import type { Route } from './+types/profile';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { submitForm } from '#server/http/forms.server.ts';
import { profileSchema } from '#common/profile.ts';
import { ProfileForm } from '../features/profile/ProfileForm.tsx';
import { PhotoManager } from '../features/profile/PhotoManager.tsx';
import { BlockedList } from '../features/profile/BlockedList.tsx';
import { useUser } from '../lib/user.ts';
import { pageMeta } from '../lib/seo.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const actor = requireMemberActor(ctx, '/profile');
  const profile = await ctx.services.profiles.own(actor);
  const photos = await ctx.services.photos.list(actor);
  const blocked = await ctx.services.blocks.list(actor);
  const regions = await ctx.services.settings.regions();
  const tr = ctx.translator.fixed(ctx.lang);
  const settings = ctx.services.settings.publicSettings(ctx.site, { geoipCountry: null, geoipSelectedCountry: null });
  return {
    title: tr('profile_edit.title'), profile, photos: photos.photos, limit: photos.limit, blocked, regions,
    interests: settings.interests.map((key) => ({ key, name: tr(`interests.${key}`) })),
    countries: settings.countries, visibleFields: settings.visible_profile_fields, showNotes: settings.visible_profile_notes,
  };
}

/** The same save as PUT /api/profile.php: the schema knows the member's address (a name may not be it). */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const actor = requireMemberActor(ctx, '/profile');
  const current = await ctx.services.profiles.own(actor);
  return submitForm(ctx, await request.formData(), profileSchema(current.email), async (input) => {
    await ctx.services.profiles.update(actor, input);
  });
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d?.title, noindex: true });
}

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const revalidator = useRevalidator();
  const d = loaderData;
  return (
    <div className="container py-4 max-w-1000">
      <div className="d-flex justify-content-between align-items-baseline flex-wrap gap-2 mb-3">
        <div>
          <h1 className="h3 mb-1">{t('profile_edit.title')}</h1>
          <p className="text-muted mb-0">{t('profile_edit.lead')}</p>
        </div>
        <Link to={`/members/${d.profile.id}`} data-testid="view-public">{t('profile_edit.view_public')}</Link>
      </div>
      <Row className="g-4">
        <Col lg={7}>
          <ProfileForm
            profile={d.profile} countries={d.countries} regions={d.regions} interests={d.interests}
            visibleFields={d.visibleFields} showNotes={d.showNotes}
          />
        </Col>
        <Col lg={5}>
          <PhotoManager initial={d.photos} limit={d.limit} premium={Boolean(user?.paid_user)} onChange={() => void revalidator.revalidate()} />
          <BlockedList initial={d.blocked} />
        </Col>
      </Row>
    </div>
  );
}
