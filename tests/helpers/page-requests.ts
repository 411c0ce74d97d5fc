import type { TestApp } from './test-app.ts';

/**
 * Pages as a browser without JavaScript asks for them: a GET with the host (and a cookie), a form posted as a browser
 * posts it (over http, or https where `https` says so), each from its own address so that no rate limit joins them.
 * `app` gives the test's app, which its beforeAll makes.
 */
export function pageRequests(app: () => Pick<TestApp, 'app'>) {
  let ip = 0;
  return {
    page: (path: string, cookie?: string) => app().app.request(`http://localhost${path}`, { headers: { host: 'localhost', ...(cookie ? { cookie } : {}) } }),
    postForm: (path: string, fields: Record<string, string>, cookie?: string, https = false) =>
      app().app.request(`${https ? 'https' : 'http'}://localhost${path}`, {
        method: 'POST', body: new URLSearchParams(fields).toString(),
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      }, { incoming: { socket: { remoteAddress: `192.0.2.${++ip}` } } }),
    /** A page's HTML without the markers React puts between a text's parts. */
    textOf: async (res: Response) => (await res.text()).replaceAll('<!-- -->', ''),
  };
}
