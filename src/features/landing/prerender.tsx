// Build-time render of the landing as a first-time visitor sees it at / (vite.config.ts writes it into landing.html).
// The tree is the browser's own (AppContent) under a static router, so React can adopt the markup as it is.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppContent } from '../../app/app.tsx';
import { ErrorBoundary } from '../../ui/error-boundary.tsx';

export function renderLanding(): string {
  return renderToString(
    <StrictMode>
      <ErrorBoundary>
        <StaticRouter location="/">
          <AppContent prerendered />
        </StaticRouter>
      </ErrorBoundary>
    </StrictMode>,
  );
}
