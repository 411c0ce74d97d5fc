import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/** The spec's route table (section 2). Route ids are the spec's route names. */
export default [
  layout('layouts/default.tsx', [
    index('routes/index.tsx', { id: 'index' }),
    route('members', 'routes/members.tsx', { id: 'members' }),
    route('members/:id', 'routes/members-id.tsx', { id: 'members-id' }),
    route('likes', 'routes/likes.tsx', { id: 'likes' }),
    route('likes/:type', 'routes/likes.tsx', { id: 'likes-type' }),
    route('login', 'routes/login.tsx', { id: 'login' }),
    route('signup', 'routes/signup.tsx', { id: 'signup' }),
    route('signup-matches', 'routes/signup-matches.tsx', { id: 'signup-matches' }),
    route('complete-signup', 'routes/complete-signup.tsx', { id: 'complete-signup' }),
    route('members/:id/signup', 'routes/signup-member.tsx', { id: 'members-id-signup' }),
    route('premium', 'routes/credits.tsx', { id: 'premium' }),
    route('pricing', 'routes/pricing.tsx', { id: 'pricing' }),
    route('profile', 'routes/profile.tsx', { id: 'profile' }),
    route('credits', 'routes/credits.tsx', { id: 'credits' }),
    route('credits/repeat-order', 'routes/credits.tsx', { id: 'credits-repeat-order' }),
    route('credits/:id/:paymentmethod?', 'routes/credits-id-paymentmethod.tsx', { id: 'credits-id-paymentmethod' }),
    route('complaints', 'routes/static-page.tsx', { id: 'complaints' }),
    route('pages/terms', 'routes/static-page.tsx', { id: 'pages-terms' }),
    route('pages/privacy', 'routes/static-page.tsx', { id: 'pages-privacy' }),
    route('pages/cookies', 'routes/static-page.tsx', { id: 'pages-cookies' }),
    route('pages/ban', 'routes/static-page.tsx', { id: 'pages-ban' }),
    route('pages/return-policy', 'routes/static-page.tsx', { id: 'pages-return-policy' }),
    route('pages/faq', 'routes/static-page.tsx', { id: 'pages-faq' }),
    route('pages/service', 'routes/static-page.tsx', { id: 'pages-service' }),
    route('notifications', 'routes/notifications.tsx', { id: 'notifications' }),
    route('delete-account', 'routes/delete-account.tsx', { id: 'delete-account' }),
    route('account-deleted', 'routes/account-deleted.tsx', { id: 'account-deleted' }),
    route('activate/done', 'routes/activate-done.tsx', { id: 'activate-done' }),
    route('activate/error', 'routes/activate-error.tsx', { id: 'activate-error' }),
    route('reset-password', 'routes/reset-password.tsx', { id: 'reset-password' }),
    route('reset-password/do', 'routes/reset-password-do.tsx', { id: 'reset-password-do' }),
    route('mail-change/do', 'routes/mail-change-do.tsx', { id: 'mail-change-do' }),
  ]),
  layout('layouts/chat.tsx', [
    route('chats', 'routes/chats.tsx', { id: 'chats' }, [
      route(':id', 'routes/chats-id.tsx', { id: 'chats-id' }),
    ]),
    route('members/:id/chat', 'routes/members-id-chat.tsx', { id: 'members-id-chat' }),
  ]),
  layout('layouts/lander.tsx', [
    route('members/:id/landing', 'routes/members-id-landing.tsx', { id: 'members-id-landing' }),
    route('landers/alonetonight/:slug?', 'routes/landers-alonetonight.tsx', { id: 'landers-alonetonight' }),
    route('landers/collagelanding/:slug?', 'routes/landers-collagelanding.tsx', { id: 'landers-collagelanding' }),
    route('landers/gallery/:slug?', 'routes/landers-gallery.tsx', { id: 'landers-gallery' }),
    route('landers/iconslanding/:slug?', 'routes/landers-iconslanding.tsx', { id: 'landers-iconslanding' }),
    route('landers/maplanding/:slug?', 'routes/landers-maplanding.tsx', { id: 'landers-maplanding' }),
  ]),
  layout('layouts/empty.tsx', [
    route('test-checkout/:ref', 'routes/test-checkout.tsx', { id: 'test-checkout' }),
  ]),
  // A site's short paths (`/{token}`): static routes rank above this one, so real pages always win.
  route(':token', 'routes/page-token.tsx', { id: 'page-token' }),
  route('*', 'routes/not-found.tsx', { id: 'not-found' }),
] satisfies RouteConfig;
