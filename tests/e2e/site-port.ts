/** The first browser-test site's port; worker n's site listens 10 ports further per n, its mailbox on port + 1. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3210);

/** The port of the site that worker `index` tests (Playwright sets TEST_PARALLEL_INDEX in each worker). */
export function sitePort(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): number {
  return E2E_BASE_PORT + 10 * index;
}
