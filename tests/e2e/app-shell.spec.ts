import { expect, test } from './support/test.ts';

test('the app shell renders and the server reports its database', async ({ page, request }) => {
  const health = await request.get('/health');
  expect(health.ok()).toBe(true);
  expect(await health.json()).toMatchObject({ status: 'ok', database: { ok: true } });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
});

test('every response carries the security headers', async ({ request }) => {
  const res = await request.get('/');
  const h = res.headers();
  expect(h['content-security-policy']).toContain("default-src 'self'");
  expect(h['content-security-policy']).not.toMatch(/'unsafe-(inline|eval)'/);
  for (const name of [
    'x-frame-options',
    'x-content-type-options',
    'referrer-policy',
    'strict-transport-security',
  ]) {
    expect(h[name], name).toBeTruthy();
  }
});

test('the startup security check passes without a warning and nothing is blocked', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
  await expect(page.getByText('Initializing security...')).toHaveCount(0);
  expect(warnings.filter((w) => w.includes('[security]'))).toEqual([]);
  // Right-click is not blocked (DESIGN.md): the context menu event is not cancelled.
  const prevented = await page.evaluate(() => {
    const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
    document.body.dispatchEvent(e);
    return e.defaultPrevented;
  });
  expect(prevented).toBe(false);
});
