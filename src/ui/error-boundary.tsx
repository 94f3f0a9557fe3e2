// Catches render errors so a broken page shows a way back instead of a blank screen.
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[app] render error', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // A failed lazy chunk after a deploy is fixed by a reload; say so plainly.
    return (
      <main className="flex min-h-screen items-center justify-center bg-bg p-6 text-fg">
        <div className="card max-w-md text-center">
          <h1 className="text-xl font-bold">Something went wrong</h1>
          <p className="mt-2 text-muted">This page could not be shown. Reloading usually fixes it.</p>
          <div className="mt-4 flex justify-center gap-3">
            <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
              Reload
            </button>
            <a href="/" className="btn-secondary">
              Home
            </a>
          </div>
        </div>
      </main>
    );
  }
}
