// The landing page: rotating headline, the promise, three feature cards, Start Your Journey and the instance's real figures.
import { useEffect, useState } from 'react';
import { HeartHandshake, MessageCircle, Search, ShieldCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { announceLandingAdopted } from './prerendered.ts';
import { PublicStats } from './public-stats.tsx';

export const ROTATING_PHRASES = ['Perfect Match', 'Soulmate', 'True Love'] as const;
const ROTATE_MS = 3000;

const FEATURES = [
  {
    title: 'Smart Matching',
    summary: 'Compatibility from what you value, not just a photo.',
    details:
      'Your answers to compatibility questions, your interests and your relationship goals are weighed on both sides, so you see people whose preferences include you too. Every score comes with the reasons behind it.',
    icon: HeartHandshake,
  },
  {
    title: 'Safe & Secure',
    summary: 'Your exact location and contact details stay private.',
    details:
      'Others see your first name, age, photos and city, and a distance rounded to a band, never your address or exact position. Photos are stripped of location data, and blocking or reporting hides you both instantly.',
    icon: ShieldCheck,
  },
  {
    title: 'Real Results',
    summary: 'Conversations that start from something you share.',
    details:
      'Matches happen only when both of you say yes. AI help suggests openers from your shared interests and keeps working offline, so a slow network never stops a good conversation.',
    icon: Sparkles,
  },
];

function RotatingPhrase() {
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setI((n) => (n + 1) % ROTATING_PHRASES.length), ROTATE_MS);
    return () => clearInterval(t);
  }, []);
  return (
    <span key={i} className="rotating-word block text-primary" aria-live="off">
      {ROTATING_PHRASES[i]}
    </span>
  );
}

/**
 * A signed-in member at / (where sign-in leads, spec) is greeted with their next step instead of being asked to
 * sign up (the header has their Dashboard link). Shown once mounted: the pre-rendered page is the visitor's,
 * and hydration must adopt it unchanged.
 */
function useSignedInMember(): boolean {
  const { isAuthenticated } = useAuth();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted && isAuthenticated;
}

function MemberWelcome() {
  return (
    <section aria-label="Welcome back" className="mx-auto mt-6 max-w-xl px-4" data-testid="member-welcome">
      <div className="card flex flex-col items-center gap-3 text-center">
        <p className="text-lg font-semibold">Welcome back! Pick up where you left off.</p>
        <div className="flex flex-wrap justify-center gap-2">
          <Link to="/find-matches" className="btn-primary">
            <Search aria-hidden="true" className="mr-1 inline size-4" />
            Discover people
          </Link>
          <Link to="/messages" className="btn-secondary">
            <MessageCircle aria-hidden="true" className="mr-1 inline size-4" />
            Messages
          </Link>
        </div>
      </div>
    </section>
  );
}

export default function LandingPage() {
  const member = useSignedInMember();
  // Taps held before the app arrived go to their buttons now (decision 0074).
  useEffect(() => announceLandingAdopted(document), []);
  return (
    <main id="main">
      {member && <MemberWelcome />}
      <section className="mx-auto max-w-6xl px-4 pt-16 pb-12 text-center md:pt-24">
        <h1 className="text-4xl font-extrabold tracking-tight md:text-6xl">
          Find Your <RotatingPhrase />
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted">
          Intelligent matching for meaningful relationships. HeartSync learns what matters to you and
          introduces you to people who want the same.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {!member && (
            <Link to="/signup" className="btn-primary px-6 py-3 text-lg">
              Start Your Journey
            </Link>
          )}
          <Link to="/how-it-works" className="btn-secondary px-6 py-3 text-lg">
            How It Works
          </Link>
        </div>
      </section>

      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="features-heading" className="text-center text-3xl font-bold">
          Why HeartSync
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {FEATURES.map((f) => (
            <li
              key={f.title}
              className="group card focus-within:ring-2 focus-within:ring-primary"
              tabIndex={0}
            >
              <f.icon aria-hidden="true" className="size-8 text-primary" />
              <h3 className="mt-3 text-xl font-semibold">{f.title}</h3>
              <p className="mt-2 text-muted">{f.summary}</p>
              <p
                className="mt-3 hidden text-sm group-hover:block group-focus:block"
                data-testid="feature-details"
              >
                {f.details}
              </p>
            </li>
          ))}
        </ul>
      </section>

      <PublicStats />

      <section className="mx-auto max-w-4xl px-4 py-12 text-center">
        <h2 className="text-3xl font-bold">Ready when you are</h2>
        <p className="mt-3 text-muted">
          Create your profile in a few minutes. You can pause your account or delete it at any time.
        </p>
        <Link to="/signup" className="btn-primary mt-6 px-6 py-3">
          Create your free profile
        </Link>
      </section>
    </main>
  );
}
