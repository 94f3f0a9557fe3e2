// Cookie consent banner: shown when no valid record is stored (or storage cannot be read); either choice stores cookieConsent.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { COOKIE_CONSENT_KEY, makeCookieConsent } from '../domain/cookie-consent.ts';
import { readCookieConsent } from './cookie-choice.ts';

export function CookieBanner() {
  const [visible, setVisible] = useState(() => readCookieConsent() === undefined);
  if (!visible) return null;

  function choose(all: boolean) {
    try {
      localStorage.setItem(COOKIE_CONSENT_KEY, JSON.stringify(makeCookieConsent(all, new Date())));
    } catch {
      /* storage unavailable: hide for this page; the banner asks again next time */
    }
    window.dispatchEvent(new Event('heartsync:cookie-consent'));
    setVisible(false);
  }

  return (
    <section
      aria-label="Cookie consent"
      data-cookie-banner
      className="fixed inset-x-0 bottom-0 z-[90] border-t border-border bg-card p-4 text-fg shadow-2xl"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 md:flex-row md:items-center">
        <p className="flex-1 text-sm">
          We use storage that is strictly necessary to sign you in and remember your settings. With your
          consent we also record anonymous page visits to improve HeartSync. Nothing optional runs until you
          choose.{' '}
          <Link to="/cookies" className="link">
            Cookie policy
          </Link>
        </p>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" onClick={() => choose(false)}>
            Necessary only
          </button>
          <button type="button" className="btn-primary" onClick={() => choose(true)}>
            Accept all
          </button>
        </div>
      </div>
    </section>
  );
}
