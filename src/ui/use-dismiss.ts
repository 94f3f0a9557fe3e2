// Closes a menu or popover the way every menu here closes: on Escape, on a press outside it and when the
// page changes (mobile-first: a menu never stays open over the next page). Escape belongs to a dialog open above
// the menu, as a dialog's own Escape closes only the top dialog (modal.tsx).
import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

export function useDismiss(open: boolean, close: () => void, root: RefObject<HTMLElement | null>): void {
  const location = useLocation();
  const closeRef = useRef(close);
  closeRef.current = close;
  // The page the menu opened on; another one closes it.
  const openedAt = useRef<string | null>(null);
  useEffect(() => {
    if (!open) {
      openedAt.current = null;
      return;
    }
    if (openedAt.current === null) openedAt.current = location.key;
    else if (openedAt.current !== location.key) closeRef.current();
  }, [open, location.key]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) closeRef.current();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // A dialog opened over the menu (a match popup arriving) takes this Escape; the menu stays for after it.
      const layers = document.querySelectorAll('[data-modal-layer]');
      if ([...layers].some((layer) => !layer.contains(root.current))) return;
      closeRef.current();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, root]);
}
