// A modal dialog that closes on Escape, on a tap outside it and when the page changes (mobile-first: a sheet
// from the bottom on a phone, a centred card on a wider screen). Focus moves into it and back on close.
// Dialogs stack: one that opens while another is open (the match popup over a dialog the member had open)
// shows above it and above Lovy's panel, and Escape closes only the top one. Panels that close on a tap
// outside them leave taps on a dialog (`data-modal-layer`) alone.
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** The open dialogs, oldest first. */
const openDialogs: symbol[] = [];
/** Above the page's own layers (menus, Lovy's panel: z-50), below a call's screen (z-[60]). */
const BASE_LAYER = 51;
const MAX_LAYER = 59;

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
  const [layer, setLayer] = useState(BASE_LAYER);
  const id = useRef(Symbol('dialog'));
  // What had the focus before the dialog: read as it first renders, since a child's autoFocus takes the
  // focus while the dialog mounts, before any of its effects run.
  const [before] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );

  // Registered before the first paint, so a dialog opened over another never shows under it.
  useLayoutEffect(() => {
    const me = id.current;
    openDialogs.push(me);
    setLayer(Math.min(MAX_LAYER, BASE_LAYER + openDialogs.length - 1));
    return () => {
      const at = openDialogs.indexOf(me);
      if (at >= 0) openDialogs.splice(at, 1);
    };
  }, []);

  useEffect(() => {
    if (location.key !== opened.current) close.current();
  }, [location.key]);

  useEffect(() => {
    // What gets the focus back: what had it as the dialog first rendered, unless that left the page meanwhile
    // (it was in a dialog that closed as this one opened); then what has it now, if outside this dialog.
    const now = document.activeElement as HTMLElement | null;
    const back = before?.isConnected ? before : now && !ref.current?.contains(now) ? now : null;
    if (!ref.current?.contains(now))
      ref.current?.querySelector<HTMLElement>('[autofocus], button, input, select, textarea')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || openDialogs[openDialogs.length - 1] !== id.current) return;
      // This Escape is the dialog's: a panel under it (Lovy's, which listens on the window) stays open.
      e.stopPropagation();
      close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      back?.focus?.();
    };
  }, [before]);

  return (
    <div
      style={{ zIndex: layer }}
      data-modal-layer
      className={`fixed inset-0 flex justify-center bg-black/50 ${
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
