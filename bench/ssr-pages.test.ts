import { describe, expect, it } from 'vitest';
import type { ServerBuild } from 'react-router';
import { loaderDataOf, pageMatches } from './ssr-pages.ts';

// The shape of the build's flat route list (modules left out: matching reads ids, paths and index flags only).
const routes = {
  root: { id: 'root', path: '' },
  'layouts/default': { id: 'layouts/default', parentId: 'root' },
  'page-boundary': { id: 'page-boundary', parentId: 'layouts/default' },
  index: { id: 'index', parentId: 'page-boundary', index: true },
  members: { id: 'members', parentId: 'page-boundary', path: 'members' },
  'members-id': { id: 'members-id', parentId: 'page-boundary', path: 'members/:id' },
  'not-found': { id: 'not-found', parentId: 'page-boundary', path: '*' },
  'layouts/chat': { id: 'layouts/chat', parentId: 'root' },
  chats: { id: 'chats', parentId: 'layouts/chat', path: 'chats' },
} as unknown as ServerBuild['routes'];

describe('pageMatches', () => {
  it('matches a page from the root through its layouts, with the params', () => {
    const matches = pageMatches(routes, '/members/42');
    expect(matches.map((m) => m.route.id)).toEqual(['root', 'layouts/default', 'page-boundary', 'members-id']);
    expect(matches.at(-1)!.params).toEqual({ id: '42' });
  });

  it('matches the index route for / and ranks a static path above the catch-all', () => {
    expect(pageMatches(routes, '/').at(-1)!.route.id).toBe('index');
    expect(pageMatches(routes, '/members').at(-1)!.route.id).toBe('members');
    expect(pageMatches(routes, '/chats').map((m) => m.route.id)).toEqual(['root', 'layouts/chat', 'chats']);
  });
});

describe('loaderDataOf', () => {
  it('takes each route\'s data', () => {
    expect(loaderDataOf({ root: { data: { lang: 'en' } }, index: { data: { total: 3 } } }, '/')).toEqual({ root: { lang: 'en' }, index: { total: 3 } });
  });

  it('refuses a route error and a redirect', () => {
    expect(() => loaderDataOf({ root: { data: {} }, members: { error: new Error('x') } }, '/members')).toThrow(/route members answered no data/);
    expect(() => loaderDataOf({ [Symbol('SingleFetchRedirect')]: { redirect: '/login' } }, '/members')).toThrow(/redirected/);
  });
});
