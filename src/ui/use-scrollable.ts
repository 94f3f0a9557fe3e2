// Whether an element's content overflows it, so that only a region that really scrolls takes a tab stop
// (a keyboard user needs one to scroll it; everywhere else it would be a stop that does nothing).
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** True when the element is taller inside than it shows; measured again when it or `content` changes. */
export function isOverflowing(el: Pick<HTMLElement, 'scrollHeight' | 'clientHeight'>): boolean {
  // One pixel of slack: a fractional height rounds differently in the two readings.
  return el.scrollHeight > el.clientHeight + 1;
}

export function useScrollable<T extends HTMLElement>(content: unknown): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [scrollable, setScrollable] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrollable(isOverflowing(el));
    check();
    if (typeof ResizeObserver === 'undefined') return;
    // The box changes with the window (a phone's layout never caps it); its children change with the content.
    const observer = new ResizeObserver(check);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [content]);
  return [ref, scrollable];
}
