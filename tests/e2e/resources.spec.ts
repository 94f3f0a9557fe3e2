// Dating Resources, at both sizes: from the sidebar (the menu on a phone) to the library, a topic that narrows
// it (in the address, so Back returns to it), a guide with its reading time and the guides to read next, the
// next one opened with the network off (the words ship with the app), an address that names no guide, and a
// link to a topic whose chip is brought into view.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 90_000 });

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`the library, a topic, a guide and the next one offline at ${size.width}x${size.height}`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize(size);
    await acceptNecessaryCookies(page);
    await signUpAndConfirm(page, request, makeEmail('resources'));

    const phone = size.width < 768;
    const menu = phone
      ? page.getByRole('navigation', { name: 'Member mobile' })
      : page.getByRole('complementary', { name: 'Sidebar' });
    if (phone) await menu.getByText('Menu', { exact: true }).click();
    await menu.getByRole('link', { name: 'Dating Resources' }).click();
    await expect(page).toHaveURL(/\/dating-resources$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dating Resources' })).toBeVisible();
    await expect(page).toHaveTitle('Dating Resources · HeartSync');
    const guides = page.getByRole('list', { name: 'Guides' });
    await expect(guides.getByRole('listitem')).toHaveCount(9);
    await expect(guides.getByText(/^\d+ min read$/)).toHaveCount(9);

    // A topic narrows the library; the address keeps it.
    const topics = page.getByRole('navigation', { name: 'Topics' });
    await expect(topics.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    await topics.getByRole('link', { name: 'Safety' }).click();
    await expect(page).toHaveURL(/\/dating-resources\?topic=safety$/);
    await expect(topics.getByRole('link', { name: 'Safety' })).toHaveAttribute('aria-current', 'page');
    await expect(topics.getByRole('link', { name: 'All' })).not.toHaveAttribute('aria-current');
    await expect(guides.getByRole('listitem')).toHaveCount(2);
    await expectNoSeriousA11yViolations(page);

    // A guide: its topic, title, reading time and words.
    await guides.getByRole('link', { name: /Meeting someone for the first time, safely/ }).click();
    await expect(page).toHaveURL(/\/articles\/meeting-safely$/);
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).toHaveText('Meeting someone for the first time, safely');
    await expect(page).toHaveTitle('Meeting someone for the first time, safely · HeartSync');
    await expect(page.getByRole('main').getByText(/^\d+ min read$/)).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Before the date' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // With the network off, the next guide opens from the bottom of this one, at its top.
    await context.setOffline(true);
    const next = page
      .getByRole('region', { name: 'Keep reading' })
      .getByRole('link', { name: /How to spot a romance scam/ });
    await next.scrollIntoViewIfNeeded();
    await next.click();
    await expect(page).toHaveURL(/\/articles\/romance-scams$/);
    await expect(title).toHaveText('How to spot a romance scam');
    await expect(page.getByRole('heading', { level: 2, name: 'The rule' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.setOffline(false);

    // Back returns through the first guide to the topic.
    await page.goBack();
    await expect(title).toHaveText('Meeting someone for the first time, safely');
    await page.goBack();
    await expect(page).toHaveURL(/\/dating-resources\?topic=safety$/);
    await expect(guides.getByRole('listitem')).toHaveCount(2);

    // An address that names no guide says so, and leads back to the library.
    await page.goto('/articles/no-such-guide');
    await expect(page.getByRole('heading', { level: 1, name: 'Article not found' })).toBeVisible();
    await page.getByRole('link', { name: 'See all guides' }).click();
    await expect(page).toHaveURL(/\/dating-resources$/);
    await expect(guides.getByRole('listitem')).toHaveCount(9);

    // A link to a topic: its chip is in view, even at the far end of the row on a phone.
    await page.goto('/dating-resources?topic=wellbeing');
    const wellbeing = topics.getByRole('link', { name: 'Wellbeing' });
    await expect(wellbeing).toHaveAttribute('aria-current', 'page');
    await expect(wellbeing).toBeInViewport({ ratio: 1 });
  });
}
