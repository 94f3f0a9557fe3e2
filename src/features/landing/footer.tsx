// Public footer: tagline, links, social links in a new tab, Top button, © 2025, and the newsletter on the home page only.
import { ArrowUp } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { NewsletterBlock } from './newsletter-block.tsx';

const LINKS = [
  { to: '/', label: 'Home' },
  { to: '/ai-features', label: 'AI Features' },
  { to: '/community', label: 'Community' },
  { to: '/safety-center', label: 'Safety' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/terms', label: 'Terms' },
  { to: '/cookies', label: 'Cookies' },
];

const SOCIAL = [
  { href: 'https://www.instagram.com/', label: 'Instagram' },
  { href: 'https://x.com/', label: 'X (Twitter)' },
  { href: 'https://www.facebook.com/', label: 'Facebook' },
];

export function Footer() {
  const { pathname } = useLocation();
  return (
    <footer className="mt-16 border-t border-border bg-card">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-3">
        <div>
          <p className="text-xl font-bold text-primary">HeartSync</p>
          <p className="mt-1 text-muted">AI-powered premium dating</p>
          <ul className="mt-4 flex gap-3" aria-label="Social media">
            {SOCIAL.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" className="link text-sm">
                  {s.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-2 text-sm">
            {LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-primary hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>{pathname === '/' && <NewsletterBlock />}</div>
      </div>
      <div className="mx-auto flex max-w-6xl items-center justify-between border-t border-border px-4 py-4 text-sm text-muted">
        <p>© 2025 HeartSync. All rights reserved.</p>
        <button
          type="button"
          className="btn-ghost"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        >
          <ArrowUp aria-hidden="true" className="mr-1 inline size-4" />
          Top
        </button>
      </div>
    </footer>
  );
}
