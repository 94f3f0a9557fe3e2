// 'Stay Connected' newsletter block (home page only): collapsible; records the address with consent time, check mark 3 s, collapses.
import { Check } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { getSupabase } from '../../data/supabase-client.ts';
import { toastError } from '../../ui/toast-store.ts';

export const NEWSLETTER_CONFIRMATION_MS = 3000;

// The SQL function records the address with its consent time; anon may call it, on Supabase as here.
async function subscribe(email: string): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.rpc('subscribe_newsletter', { email });
  if (error) throw new Error(error.message);
}

export function NewsletterBlock() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => {
      setDone(false);
      setOpen(false);
    }, NEWSLETTER_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [done]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await subscribe(email.trim());
      setEmail('');
      setDone(true);
    } catch {
      toastError('Subscription failed', 'We could not add your address. Please try again later.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="rounded-xl border border-border bg-subtle p-4" data-testid="newsletter">
      <button
        type="button"
        className="flex w-full items-center justify-between text-left font-semibold"
        aria-expanded={open}
        aria-controls="newsletter-form"
        onClick={() => setOpen((o) => !o)}
      >
        Stay Connected
        <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open && (
        <form id="newsletter-form" onSubmit={(e) => void onSubmit(e)} className="mt-3 space-y-2">
          <p className="text-sm text-muted">
            Dating tips and HeartSync news, about once a month. By subscribing you agree that we store your
            address to send them; unsubscribe any time.
          </p>
          <div className="flex gap-2">
            <label htmlFor="newsletter-email" className="sr-only">
              Email address
            </label>
            <input
              id="newsletter-email"
              type="email"
              required
              placeholder="you@example.com"
              className="input"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <button
              type="submit"
              className="btn-primary"
              disabled={busy || done}
              aria-label={done ? 'Subscribed' : 'Subscribe'}
            >
              {done ? <Check aria-hidden="true" className="size-4" /> : 'Subscribe'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
