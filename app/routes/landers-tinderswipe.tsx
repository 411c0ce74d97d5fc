import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/landers-tinderswipe';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin } from '../features/landers/shared.tsx';
import { SwipeDeck } from '../features/landers/SwipeDeck.tsx';
import '../features/landers/tinderswipe.scss';
import { pageMeta } from '../lib/seo.ts';

// Held like every lander: a card swiped before the code runs follows the finger and counts (SwipeDeck).
export const handle = { lander: 'tinderswipe' } as const satisfies LanderHandle;

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, search: url.search, count: 10 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.tinderswipe.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** Swipe members like cards; the first like is a match that leads into sign-up with them. */
export default function TinderSwipeLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="lander-swipe">
      <div className="container swipe-layout">
        <header className="swipe-head">
          <h1>{t('landers.tinderswipe.title')}</h1>
          <p>{t('landers.tinderswipe.hint')}</p>
        </header>
        <SwipeDeck profiles={loaderData.profiles} search={loaderData.search} />
        <LanderLogin className="swipe-login" />
      </div>
    </div>
  );
}
