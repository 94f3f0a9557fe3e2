// Public top navigation: Home, Features, Community, How It Works on desktop, plus Safety Center on mobile.
import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { ThemeMenu } from '../../ui/theme-menu.tsx';

const LINKS = [
  { to: '/', label: 'Home' },
  { to: '/ai-features', label: 'Features' },
  { to: '/community', label: 'Community' },
  { to: '/how-it-works', label: 'How It Works' },
];
const MOBILE_ONLY = { to: '/safety-center', label: 'Safety Center' };

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium hover:bg-subtle ${isActive ? 'text-primary' : 'text-fg'}`;

export function TopNav() {
  const { isAuthenticated } = useAuth();
  const [open, setOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-bg/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
        <Link to="/" className="text-xl font-bold text-primary">
          HeartSync
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {LINKS.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end className={linkClass}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden items-center gap-2 md:flex">
          <ThemeMenu />
          {isAuthenticated ? (
            <Link to="/find-matches" className="btn-primary">
              Dashboard
            </Link>
          ) : (
            <>
              <Link to="/login" className="btn-ghost">
                Sign In
              </Link>
              <Link to="/signup" className="btn-primary">
                Get Started
              </Link>
            </>
          )}
        </div>
        <div className="md:hidden">
          <ThemeMenu />
        </div>
        <button
          type="button"
          className="btn-ghost md:hidden"
          aria-expanded={open}
          aria-controls="mobile-nav"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Close' : 'Menu'}
        </button>
      </nav>
      {open && (
        <div id="mobile-nav" className="border-t border-border px-4 pb-4 md:hidden">
          <ul className="flex flex-col py-2">
            {[...LINKS, MOBILE_ONLY].map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end className={linkClass} onClick={() => setOpen(false)}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
          {isAuthenticated ? (
            <Link to="/find-matches" className="btn-primary w-full">
              Dashboard
            </Link>
          ) : (
            <div className="flex gap-2">
              <Link to="/login" className="btn-secondary flex-1">
                Sign In
              </Link>
              <Link to="/signup" className="btn-primary flex-1">
                Get Started
              </Link>
            </div>
          )}
        </div>
      )}
    </header>
  );
}
