import sharp from 'sharp';
import { expect, hydrated, test } from './fixtures.ts';
import { demoMembers, newMember } from './account-helpers.ts';
import { asStaff, overflowing } from './console-staff.ts';

const LANGUAGES = ['English', 'Nederlands', 'Deutsch', 'Italiano', 'Français', 'Español', 'Polski', 'Dansk', 'Suomi', 'Norsk bokmål', 'Svenska'];

/**
 * The catalogue in the console at 1280 px, by finance staff: a credit package with its prices, which a member then sees
 * on the credits page; a discount code, which a member redeems and whose use count rises; a gift with an uploaded
 * image, which appears in a member's gift picker.
 */
test('finance staff add a package, a discount code and a gift, and members see and use them', async ({ page, browser, shot }, info) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36).toUpperCase();
  const credits = 300 + (Date.now() % 600);
  await asStaff(page, { width: 1280, height: 900 }, 'finance');

  // A package: credits with "about N messages", a price typed as money, a bad price refused beside the prices.
  await page.goto('/console');
  await page.getByTestId('console-nav-catalogue').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Credit packages');
  await page.getByTestId('package-new').click();
  await hydrated(page);
  await page.getByLabel('Credits').fill(String(credits));
  await expect(page.getByTestId('package-messages')).toHaveText(`About ${Math.floor(credits / 5)} messages on this site`);
  await page.getByTestId('package-price-EUR').fill('twelve');
  await page.getByTestId('package-save').click();
  await expect(page.locator('#package-prices-error')).toHaveText('Enter a whole number within the allowed range.');
  await page.getByTestId('package-price-EUR').fill('12.34');
  await page.getByTestId('package-save').click();
  await expect(page.getByTestId('package-saved')).toHaveText('The package has been created.');
  await hydrated(page);
  await expect(page.getByTestId('package-price-EUR')).toHaveValue('12.34');
  await shot('console-package');
  expect(await overflowing(page)).toEqual([]);

  const member = await newMember(browser, 'catalogue', info.project.name);
  await member.page.goto('/credits');
  const card = member.page.getByTestId('package').filter({ has: member.page.getByTestId('package-credits').getByText(String(credits), { exact: true }) });
  await expect(card).toBeVisible();
  // A new member's welcome bonus shows the package's price struck through beside the discounted one.
  await expect(card).toContainText('€12.34');

  // A discount code, once per member, above the new member's welcome bonus.
  await page.getByTestId('console-nav-catalogue').click();
  await page.getByTestId('console-catalogue-discounts').click();
  await page.getByTestId('discount-new').click();
  await hydrated(page);
  const code = `CAT${run}`;
  await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await page.getByLabel('Discount in percent').fill('95');
  await page.getByTestId('discount-save').click();
  await expect(page.locator('#discount-percentBp-error')).toHaveText('Enter a whole number within the allowed range.');
  await page.getByLabel('Discount in percent').fill('30');
  await page.getByTestId('discount-save').click();
  await expect(page.getByTestId('discount-saved')).toHaveText('The discount code has been created.');
  await expect(page.getByTestId('discount-uses')).toHaveText('Used 0 times.');
  await shot('console-discount');

  const packages = (await (await member.page.request.get('/api/packages.php')).json()) as { packages: { id: number; credits: number }[] };
  const bought = packages.packages.find((p) => p.credits === credits)!;
  const placed = await member.page.request.post('/api/order.php', {
    data: { package_id: bought.id, paymentmethod: 'ideal', withdrawal_consent: true, discount_code: code.toLowerCase() }, headers: { 'idempotency-key': `catalogue-${run}` },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { payment_id: string; amount: number } };
  expect(order.amount).toBe(Math.floor((1234 * 7000) / 10_000));
  expect((await member.page.request.post('/api/test-checkout.php', { data: { id: order.payment_id, outcome: 'paid' } })).status()).toBe(200);
  await page.goto('/console/discounts');
  await expect(page.locator(`tr[data-discount="${code}"]`).getByTestId('discount-uses')).toHaveText('1');
  await shot('console-discounts');

  // A gift with its name in every language and an uploaded image, in the member's gift picker.
  await page.getByTestId('console-catalogue-gifts').click();
  await page.getByTestId('gift-new').click();
  await hydrated(page);
  const name = `Teddy ${run}`;
  for (const language of LANGUAGES) await page.getByLabel(language, { exact: true }).fill(`${name} ${language.slice(0, 2)}`);
  await page.getByLabel('English', { exact: true }).fill(name);
  const png = await sharp({ create: { width: 120, height: 120, channels: 4, background: '#b5651d' } }).png().toBuffer();
  await page.getByLabel('Image').setInputFiles({ name: 'teddy.png', mimeType: 'image/png', buffer: png });
  await page.getByLabel('Credits').fill('3');
  await page.getByTestId('gift-save').click();
  await expect(page.getByTestId('gift-saved')).toHaveText('The gift has been created.');
  await expect(page.getByTestId('gift-image')).toHaveJSProperty('naturalWidth', 192);
  await shot('console-gift');
  expect(await overflowing(page)).toEqual([]);

  const [profile] = await demoMembers(member.page.request);
  await member.page.goto(`/members/${profile!.id}/chat`);
  await hydrated(member.page);
  // An empty conversation opens with suggested first messages: write one's own instead.
  await member.page.getByTestId('icebreaker-own').click();
  await member.page.getByTestId('open-gifts').click();
  const choice = member.page.getByTestId('gift-picker').getByTestId('gift-choice').filter({ hasText: name });
  await expect(choice).toBeVisible();
  await expect(choice.locator('img')).toHaveJSProperty('naturalWidth', 192);
  await expect(choice.getByTestId('gift-own-price')).toContainText('3 credits');
  await member.page.screenshot({ path: 'tests/e2e/screenshots/console-catalogue-gift-picker.png' });
  await member.close();

  // Packages are shared by every site: the one made here is retired (an order names it), and the credits page that
  // other tests of this site read is as the seed made it.
  await page.goto(`/console/packages/${bought.id}`);
  await hydrated(page);
  await page.getByTestId('package-remove').locator('summary').click();
  await page.getByTestId('package-remove-confirm').click();
  await expect(page.getByTestId('package-removed')).toBeVisible();
});
