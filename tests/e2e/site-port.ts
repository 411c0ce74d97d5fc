/** The first browser-test site's port; worker n's site listens 10 ports further per n, its mailbox on port + 1. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3210);

/** The port of the site that worker `index` tests (Playwright sets TEST_PARALLEL_INDEX in each worker). */
export function sitePort(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): number {
  return E2E_BASE_PORT + 10 * index;
}

/**
 * A second brand on every test site, added as an operator would (npm run sites:set -- --add): another
 * domain, niche (gay), colours and logo, the adults-only warning turned off, with its assets and photos on a CDN origin, which is this same
 * server under another name (Chromium sends every *.localhost name to this machine).
 */
export const SECOND_SITE = {
  domain: 'men.localhost', name: 'Men Meet', niche: 7, primary: '#1d4ed8', secondary: '#f97316', dark: '#0b1f3a', logo: '/logos/men-meet.svg', entryWarning: 'off',
  cdn: (port: number) => `http://cdn.localhost:${port}`,
} as const;
