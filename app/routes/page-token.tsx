import type { Route } from './+types/page-token';
import { requestContext } from '../context.ts';
import { pageTokenRedirect } from '#server/landers/lander-loaders.server.ts';

/** `/{token}`: redirects to the token's lander or page with its tracking parameters; unknown tokens are 404. */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  await pageTokenRedirect(context.get(requestContext), params.token, url);
}

export default function PageToken() {
  return null;
}
