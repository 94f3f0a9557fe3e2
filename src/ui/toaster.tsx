// The toast region: shows the current toast, closes it after its duration, swipe (50 px) to dismiss, F8 to focus.
import { X } from 'lucide-react';
import { useEffect, useRef, useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_SWIPE_THRESHOLD_PX,
  dismissToast,
  getToasts,
  subscribeToasts,
  type ToastItem,
} from './toast-store.ts';

function ToastCard({ item }: { item: ToastItem }) {
  const start = useRef<number | null>(null);
  const card = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (!item.open) return;
    const timer = setTimeout(() => dismissToast(item.id), item.duration ?? TOAST_DEFAULT_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.id, item.open, item.duration]);

  function onPointerDown(e: ReactPointerEvent) {
    start.current = e.clientX;
  }
  function onPointerMove(e: ReactPointerEvent) {
    if (start.current === null || !card.current) return;
    const dx = Math.max(0, e.clientX - start.current);
    card.current.dataset['swipe'] = dx > 0 ? 'move' : '';
    card.current.style.setProperty('--swipe-x', `${dx}px`);
  }
  function onPointerUp(e: ReactPointerEvent) {
    if (start.current === null) return;
    const dx = e.clientX - start.current;
    start.current = null;
    card.current?.style.setProperty('--swipe-x', '0px');
    if (card.current) card.current.dataset['swipe'] = '';
    if (dx >= TOAST_SWIPE_THRESHOLD_PX) dismissToast(item.id);
  }

  const destructive = item.variant === 'destructive';
  return (
    <li
      ref={card}
      data-state={item.open ? 'open' : 'closed'}
      data-variant={item.variant ?? 'default'}
      className={`toast pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-700 text-white' : 'border-border bg-card text-fg'
      }`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      {/* The live role sits inside the item: a list's children must stay list items (axe "list"). */}
      <div className="flex-1" role={destructive ? 'alert' : 'status'} aria-atomic="true">
        <p className="text-sm font-semibold">{item.title}</p>
        {item.description && <p className="mt-1 text-sm opacity-90">{item.description}</p>}
      </div>
      {item.action && (
        <button
          type="button"
          className="rounded border px-2 py-1 text-sm"
          onClick={() => {
            item.action?.onClick();
            dismissToast(item.id);
          }}
        >
          {item.action.label}
        </button>
      )}
      <button
        type="button"
        aria-label="Close notification"
        className="rounded px-1 text-lg leading-none opacity-80 hover:opacity-100"
        onClick={() => dismissToast(item.id)}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </li>
  );
}

export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const region = useRef<HTMLOListElement>(null);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === 'F8') {
        e.preventDefault();
        region.current?.focus();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section aria-label="Notifications (F8)">
      <ol
        ref={region}
        tabIndex={-1}
        className="pointer-events-none fixed right-0 bottom-16 z-[100] md:bottom-0 flex w-full max-w-sm flex-col gap-2 p-4 outline-none focus:ring-2 focus:ring-primary"
      >
        {items
          .filter((t) => t.open)
          .map((t) => (
            <ToastCard key={t.id} item={t} />
          ))}
      </ol>
    </section>
  );
}
