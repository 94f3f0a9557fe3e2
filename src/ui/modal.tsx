// A modal dialog that closes on Escape, on a tap outside it and when the page changes (mobile-first: a sheet
// from the bottom on a phone, a centred card on a wider screen). Focus moves into it and back on close.
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export function Modal({
  label,
  labelledBy,
  describedBy,
  role = 'dialog',
  placement = 'sheet',
  className = 'md:max-w-lg',
  onClose,
  children,
}: {
  /** The dialog's name, or the id of its heading in `labelledBy`. */
  label?: string;
  labelledBy?: string;
  describedBy?: string;
  /** An alertdialog asks to confirm something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  /** A sheet from the bottom on phones (the default), or a card in the centre on every size. */
  placement?: 'sheet' | 'center';
  /** Width and look of the card on wider screens. */
  className?: string;
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
      className={`fixed inset-0 z-50 flex justify-center bg-black/50 ${
        placement === 'sheet' ? 'items-end md:items-center md:p-4' : 'items-center p-4'
      }`}
      onPointerDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role={role}
        aria-modal="true"
        aria-label={label}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        className={`max-h-[90vh] w-full overflow-y-auto bg-card p-4 text-fg shadow-xl md:p-6 ${
          placement === 'sheet' ? 'rounded-t-2xl md:rounded-2xl' : 'rounded-2xl'
        } ${className}`}
      >
        {children}
      </div>
    </div>
  );
}
