// Terms, privacy and cookie policies written for a self-hosted instance; the operator comes from the configuration.
import { Link } from 'react-router-dom';
import { COOKIE_CONSENT_KEY } from '../../domain/cookie-consent.ts';
import { OperatorContact, PublicPage, useOperator } from './public-page.tsx';

export function TermsPage() {
  const op = useOperator();
  return (
    <PublicPage
      title="Terms of Service"
      lead={`The rules for using this HeartSync instance, run by ${op.name}.`}
    >
      <h2>1. Who we are</h2>
      <p>
        This service is operated by {op.name} ("we"). Contact: <OperatorContact op={op} />. HeartSync is
        open-source software; the operator is responsible for this instance.
      </p>
      <h2>2. Who may use it</h2>
      <p>You must be at least 18 years old and allowed to enter into this agreement where you live.</p>
      <h2>3. Your account</h2>
      <p>
        Keep your password secret and your profile truthful. You may pause your account or schedule its
        deletion at any time from your account settings.
      </p>
      <h2>4. Conduct</h2>
      <p>
        Follow the{' '}
        <Link to="/community" className="link">
          community guidelines
        </Link>
        . We may suspend or remove accounts that break them, after reviewing reports.
      </p>
      <h2>5. Paid plans</h2>
      <p>
        If this instance offers paid plans, their price and content are shown before you pay. You can cancel
        at any time; the plan stays active until the end of the paid period.
      </p>
      <h2>6. Liability</h2>
      <p>
        We provide the service with care but cannot guarantee matches or the behaviour of other members. Meet
        people safely: see the{' '}
        <Link to="/safety-center" className="link">
          Safety Center
        </Link>
        . Nothing in these terms limits rights you have under the law of your country.
      </p>
      <h2>7. Changes</h2>
      <p>We announce changes to these terms in the app before they take effect.</p>
    </PublicPage>
  );
}

export function PrivacyPage() {
  const op = useOperator();
  return (
    <PublicPage
      title="Privacy Policy"
      lead="What this instance stores about you, why, and what you can do about it."
    >
      <h2>Controller</h2>
      <p>
        {op.name} is responsible for your data on this instance. Contact: <OperatorContact op={op} />.
      </p>
      <h2>What we store</h2>
      <ul>
        <li>
          Account: e-mail address, a slow hash of your password (never the password itself), sign-in sessions.
        </li>
        <li>Profile: what you enter (name, birthday, photos, bio, interests, preferences, answers).</li>
        <li>
          Location: the city you pick from the app's built-in list, with its position rounded to about 10 km;
          never your GPS position.
        </li>
        <li>Activity: likes, matches, messages, and when you were last online.</li>
        <li>Security records: sign-in and session events, to protect accounts from abuse.</li>
        <li>Newsletter: your address and the time you subscribed, only if you subscribe.</li>
      </ul>
      <h2>Who sees what</h2>
      <p>
        Other members see your first name, age, photos, bio, interests, city and a distance band. Your e-mail,
        birthday, address and exact position are visible to you alone. Photos are re-encoded with their
        metadata (including GPS) removed.
      </p>
      <h2>How long</h2>
      <p>
        Until you delete your account. A deletion is carried out after a grace period (30 days by default)
        during which you can cancel it; then your account, profile, messages and photos are removed.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and correct your data in the app, pause or delete your account, and ask the operator for a
        copy of your data or to object to its processing. You may also complain to your data protection
        authority.
      </p>
      <h2>Credits</h2>
      <p>
        The city list ships with the app, so picking a city sends nothing anywhere. City names, regions and
        positions come from{' '}
        <a className="link" href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">
          GeoNames
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        , licensed under{' '}
        <a
          className="link"
          href="https://creativecommons.org/licenses/by/4.0/"
          target="_blank"
          rel="noopener noreferrer"
        >
          CC BY 4.0
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        ; we keep only places of 15,000 people or more and round their positions.
      </p>
      <p>
        See also the{' '}
        <Link to="/cookies" className="link">
          cookie policy
        </Link>
        .
      </p>
    </PublicPage>
  );
}

export function CookiesPage() {
  const op = useOperator();
  function resetConsent() {
    try {
      localStorage.removeItem(COOKIE_CONSENT_KEY);
    } catch {
      /* storage unavailable */
    }
    window.location.reload();
  }
  return (
    <PublicPage title="Cookie Policy" lead="What this site keeps in your browser.">
      <h2>Strictly necessary</h2>
      <ul>
        <li>Your sign-in session (local storage, or session storage when "Remember me" is unchecked).</li>
        <li>Your theme and dark-mode choice, and whether the sidebar is open (a cookie kept for 7 days).</li>
        <li>Your cookie choice itself, under the key {COOKIE_CONSENT_KEY}.</li>
        <li>The offline copy of your data, so the app works without a network.</li>
      </ul>
      <h2>Analytics (only with consent)</h2>
      <p>Page-visit records stored on this instance's server, used by {op.name} to improve the service.</p>
      <h2>Marketing</h2>
      <p>This instance uses no advertising or third-party tracking cookies.</p>
      <h2>Change your choice</h2>
      <button type="button" className="btn-secondary" onClick={resetConsent}>
        Change cookie settings
      </button>
    </PublicPage>
  );
}

export function NotFoundPage() {
  return (
    <PublicPage title="Page not found" lead="There is nothing at this address.">
      <p>
        <Link to="/" className="link">
          Back to Home
        </Link>
      </p>
    </PublicPage>
  );
}
