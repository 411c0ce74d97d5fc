import { useMatches } from 'react-router';
import type { Route } from './+types/static-page';
import { requestContext } from '../context.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { pageMeta } from '../lib/seo.ts';
import '../features/content/static-page.scss';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const slug = url.pathname.replace(/^\/(pages\/)?/, '').replace(/\/$/, '');
  return orNotFound(ctx.services.content.sitePage(ctx.actor, { slug, language: ctx.lang, requestCountry: ctx.geoipCountry }));
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** Terms, privacy, cookies, ban, return policy, FAQ and service, in the member's language (the complaints text is on /complaints). */
export default function StaticPage({ loaderData }: Route.ComponentProps) {
  const id = useMatches().at(-1)?.id;
  return (
    <article className="container py-4 static-page max-w-860" data-page={id}>
      <h1 className="h2 mb-3">{loaderData.title}</h1>
      {/* Rendered from the project's own markdown by a renderer that escapes all text. */}
      <div dangerouslySetInnerHTML={{ __html: loaderData.html }} />
    </article>
  );
}
