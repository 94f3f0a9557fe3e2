// Layout of the public area: top navigation, page, footer and the scroll buttons.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { Footer } from './footer.tsx';
import { TopNav } from './top-nav.tsx';

// The scroll buttons show only once the page is scrolled: nothing of theirs is on the first paint, so their
// code loads after the page has been adopted, not with it (issue 21: the landing's JavaScript until live).
const ScrollButtons = lazy(() => import('./scroll-buttons.tsx').then((m) => ({ default: m.ScrollButtons })));

/** True from the render after mounting: what the pre-rendered page does not hold renders from then on. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

export function PublicLayout() {
  const mounted = useMounted();
  return (
    <div className="flex min-h-screen flex-col bg-bg text-fg">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 btn-primary"
      >
        Skip to content
      </a>
      <TopNav />
      <div className="flex-1">
        <Outlet />
      </div>
      <Footer />
      {mounted && (
        <Suspense fallback={null}>
          <ScrollButtons />
        </Suspense>
      )}
    </div>
  );
}
