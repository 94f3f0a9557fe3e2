// What lies on top: a tap at an element's centre reaches that element, not a layer drawn over it.
import type { Locator } from '@playwright/test';
import { expect } from './accounts.ts';

export async function expectTapReaches(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  const centre = [box!.x + box!.width / 2, box!.y + box!.height / 2] as const;
  const reached = await target.evaluate((el, [x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return hit !== null && el.contains(hit);
  }, centre);
  expect(reached, 'a tap on it reaches it').toBe(true);
}
