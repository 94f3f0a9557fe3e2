// A modal dialog that closes on Escape, on a tap outside it and when the page changes (mobile-first: a sheet
// from the bottom on a phone, a centred card on a wider screen). Focus moves into it and back on close.
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export function Modal({
  label,
  onClose,
  children,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const opened = useRef(location.key);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (location.key !== opened.current) close.current();
  }, [location.key]);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('[autofocus], button, input, select, textarea')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, []);

  return (
    <div
      className="fixed inset-0 z-50 flex items-end justify-center bg-black/50 md:items-center md:p-4"
      onPointerDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        className="max-h-[90vh] w-full overflow-y-auto rounded-t-2xl bg-card p-4 text-fg shadow-xl md:max-w-lg md:rounded-2xl md:p-6"
      >
        {children}
      </div>
    </div>
  );
}
