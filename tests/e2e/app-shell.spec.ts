import { expect, test } from '@playwright/test';

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
