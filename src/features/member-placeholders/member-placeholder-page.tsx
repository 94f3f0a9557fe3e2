// Honest placeholder for member pages that later issues build: says what is coming and links onwards.
import { Link, Navigate } from 'react-router-dom';

export interface PlaceholderInfo {
  title: string;
  coming: string;
}

export const PLACEHOLDERS: Record<string, PlaceholderInfo> = {
  '/find-matches': {
    title: 'Find Matches',
    coming: 'Discovery: swipe through members ranked by compatibility, even offline.',
  },
  '/match-list': {
    title: 'Your Matches',
    coming: 'Everyone you liked who liked you back, with a way to start talking.',
  },
  '/likes': { title: 'Likes', coming: 'Members who liked you, waiting for your answer.' },
  '/messages': { title: 'Messages', coming: 'Conversations with your matches, with AI-suggested openers.' },
  '/profile': {
    title: 'Your Profile',
    coming: 'Edit your photos, bio, interests and what you are looking for.',
  },
  '/dating-resources': {
    title: 'Dating Resources',
    coming: 'Guides and articles on dating well and safely.',
  },
  '/dashboard': { title: 'Dashboard', coming: 'An overview of your matches, likes and messages.' },
  '/profile-builder': {
    title: 'Profile Builder',
    coming: 'A step-by-step guide to a profile that gets you good matches.',
  },
  '/notifications': { title: 'Notifications', coming: 'New matches, likes and messages in one place.' },
};

export function MemberPlaceholderPage({ info }: { info: PlaceholderInfo }) {
  return (
    <main id="main" className="mx-auto max-w-3xl p-6">
      <h1 className="text-3xl font-bold">{info.title}</h1>
      <div className="card mt-6">
        <p className="font-medium">This part of HeartSync is being built.</p>
        <p className="mt-2 text-muted">Coming here: {info.coming}</p>
        <p className="mt-4 text-sm">
          Meanwhile you can manage your{' '}
          <Link to="/account" className="link">
            account settings
          </Link>{' '}
          or read the{' '}
          <Link to="/safety-center" className="link">
            safety guidance
          </Link>
          .
        </p>
      </div>
    </main>
  );
}

/** A guarded route's placeholder, or home for a path that has none. */
export function PlaceholderRoute({ path }: { path: string }) {
  const info = PLACEHOLDERS[path];
  return info ? <MemberPlaceholderPage info={info} /> : <Navigate to="/" replace />;
}

export function ArticlePlaceholderPage({ slug }: { slug: string }) {
  return (
    <MemberPlaceholderPage
      info={{
        title: 'Article',
        coming: `The article “${slug.replace(/-/g, ' ')}” from the dating resources library.`,
      }}
    />
  );
}
