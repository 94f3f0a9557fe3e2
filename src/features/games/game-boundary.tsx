// The spec's game fallback (§2): "Game Error", "Something went wrong with the game. Please try again." and
// Try Again, around every game screen, so one broken round never takes the member area down.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { GAME_TEXT } from '../../domain/games.ts';

interface State {
  error: Error | null;
  attempt: number;
}

export class GameErrorBoundary extends Component<{ children: (attempt: number) => ReactNode }, State> {
  override state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[games] render error', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children(this.state.attempt);
    return (
      <div role="alert" className="card mx-auto mt-6 max-w-md text-center">
        <TriangleAlert aria-hidden="true" className="mx-auto size-8 text-primary" />
        <h2 className="mt-2 text-xl font-bold">{GAME_TEXT.fallbackTitle}</h2>
        <p className="mt-2 text-muted">{GAME_TEXT.fallbackBody}</p>
        <button
          type="button"
          className="btn-primary mt-4"
          onClick={() => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }))}
        >
          Try Again
        </button>
      </div>
    );
  }
}
