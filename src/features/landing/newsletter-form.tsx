// The 'Stay Connected' form (newsletter-block.tsx): records the address with its consent time, shows a check
// mark for 3 s, then asks the block to collapse. Loaded when the block opens, not with the landing.
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

export interface NewsletterFormProps {
  /** The address typed so far: kept by the block, so closing and opening it again loses nothing. */
  email: string;
  setEmail: (email: string) => void;
  onDone: () => void;
}

export default function NewsletterForm({ email, setEmail, onDone }: NewsletterFormProps) {
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => {
      setDone(false);
      onDone();
    }, NEWSLETTER_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [done, onDone]);

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
  );
}
