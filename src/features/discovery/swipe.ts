// The swipe's rule, pure (issue 20): past a quarter of the card's width (at least 80 px) a drag decides.

export const SWIPE_MIN_PX = 80;
export const SWIPE_SHARE = 0.25;
export const SWIPE_MAX_TILT_DEG = 12;

export function getSwipeThreshold(cardWidth: number): number {
  return Math.max(SWIPE_MIN_PX, cardWidth * SWIPE_SHARE);
}

/** like (right), skip (left), or undefined: the card springs back. */
export function getSwipeDecision(dx: number, cardWidth: number): 'like' | 'skip' | undefined {
  const t = getSwipeThreshold(cardWidth);
  if (dx >= t) return 'like';
  if (dx <= -t) return 'skip';
  return undefined;
}
