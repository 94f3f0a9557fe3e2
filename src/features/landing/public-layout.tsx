// Layout of the public area: top navigation, page, footer and the scroll buttons.
import { Outlet } from 'react-router-dom';
import { Footer } from './footer.tsx';
import { ScrollButtons } from './scroll-buttons.tsx';
import { TopNav } from './top-nav.tsx';

export function PublicLayout() {
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
      <ScrollButtons />
    </div>
  );
}
