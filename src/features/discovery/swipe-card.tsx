// The deck's card as a swipe (issue 20): drag it right to like or left to skip, past a threshold, with the card
// following the finger and a "Like" / "Nope" stamp; below the threshold it springs back. Vertical scrolling stays
// the page's (touch-action: pan-y), taps on the card's own buttons still work, and with reduced motion the card
// does not tilt or fly out. The buttons and the keyboard stay the other ways to decide.
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Heart, X } from 'lucide-react';
import { getSwipeDecision, SWIPE_MAX_TILT_DEG } from './swipe.ts';

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

export function SwipeCard({
  children,
  disabled,
  onDecide,
}: {
  children: ReactNode;
  disabled: boolean;
  onDecide: (type: 'like' | 'skip') => void;
}) {
  const start = useRef<{ x: number; y: number; id: number } | undefined>(undefined);
  const moved = useRef(false);
  const [dx, setDx] = useState(0);
  const [leaving, setLeaving] = useState<'like' | 'skip'>();
  const width = useRef(360);

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    if (disabled || leaving || (e.pointerType === 'mouse' && e.button !== 0)) return;
    start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
    moved.current = false;
    width.current = e.currentTarget.getBoundingClientRect().width || 360;
  }

  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    const s = start.current;
    if (!s || s.id !== e.pointerId) return;
    const x = e.clientX - s.x;
    // A mostly vertical move is the page scrolling: let it be.
    if (!moved.current && Math.abs(x) < 8) return;
    if (!moved.current && Math.abs(e.clientY - s.y) > Math.abs(x)) {
      start.current = undefined;
      return;
    }
    if (!moved.current) e.currentTarget.setPointerCapture(e.pointerId);
    moved.current = true;
    setDx(x);
  }

  function onPointerUp(e: PointerEvent<HTMLDivElement>) {
    const s = start.current;
    start.current = undefined;
    if (!s || !moved.current) return;
    const decision = getSwipeDecision(e.clientX - s.x, width.current);
    if (!decision) {
      setDx(0);
      return;
    }
    if (prefersReducedMotion()) {
      setDx(0);
      onDecide(decision);
      return;
    }
    setLeaving(decision);
    setDx(decision === 'like' ? width.current * 1.5 : -width.current * 1.5);
    window.setTimeout(() => onDecide(decision), 180);
  }

  const reduced = prefersReducedMotion();
  const tilt = reduced ? 0 : Math.max(-1, Math.min(1, dx / width.current)) * SWIPE_MAX_TILT_DEG;
  const likeOpacity = Math.max(0, Math.min(1, dx / (width.current * 0.3)));
  const nopeOpacity = Math.max(0, Math.min(1, -dx / (width.current * 0.3)));

  return (
    <div
      className="relative touch-pan-y select-none"
      data-testid="swipe-card"
      data-drag={Math.round(dx)}
      style={{
        transform: dx ? `translateX(${dx}px) rotate(${tilt}deg)` : undefined,
        transition: start.current ? 'none' : 'transform 180ms ease-out',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      // A photo's own drag (the browser's image drag and drop) would cancel the swipe.
      onDragStart={(e) => e.preventDefault()}
      onPointerCancel={() => {
        start.current = undefined;
        setDx(0);
      }}
      onClickCapture={(e) => {
        // The end of a drag is not a tap on a photo button.
        if (moved.current) {
          e.stopPropagation();
          e.preventDefault();
          moved.current = false;
        }
      }}
    >
      {children}
      <div
        aria-hidden="true"
        className="pointer-events-none absolute top-6 left-6 flex -rotate-12 items-center gap-1 rounded-lg border-4 border-green-500 px-3 py-1 text-2xl font-extrabold text-green-500"
        style={{ opacity: likeOpacity }}
      >
        <Heart className="size-6" /> LIKE
      </div>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute top-6 right-6 flex rotate-12 items-center gap-1 rounded-lg border-4 border-red-500 px-3 py-1 text-2xl font-extrabold text-red-500"
        style={{ opacity: nopeOpacity }}
      >
        <X className="size-6" /> NOPE
      </div>
    </div>
  );
}
