// 'Stay Connected' newsletter block (home page only): collapsible; its form (newsletter-form.tsx) loads when
// it opens (or is about to: pointer over or focus on the button), not with the landing's first load.
import { lazy, Suspense, useCallback, useState } from 'react';

const loadForm = () => import('./newsletter-form.tsx');
const NewsletterForm = lazy(loadForm);

export function NewsletterBlock() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const close = useCallback(() => setOpen(false), []);
  const preload = () => void loadForm().catch(() => undefined);

  return (
    <div className="rounded-xl border border-border bg-subtle p-4" data-testid="newsletter">
      <button
        type="button"
        className="flex w-full items-center justify-between text-left font-semibold"
        aria-expanded={open}
        aria-controls="newsletter-form"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen((o) => !o)}
      >
        Stay Connected
        <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open && (
        <Suspense fallback={<p className="mt-3 text-sm text-muted">Loading...</p>}>
          <NewsletterForm email={email} setEmail={setEmail} onDone={close} />
        </Suspense>
      )}
    </div>
  );
}
