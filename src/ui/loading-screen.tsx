// The full-screen and in-page 'Loading...' states.

export function FullScreenLoading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-screen items-center justify-center bg-bg text-fg"
    >
      <div className="flex flex-col items-center gap-3">
        <span
          aria-hidden="true"
          className="size-8 animate-spin rounded-full border-4 border-border border-t-primary"
        />
        <p>{text}</p>
      </div>
    </div>
  );
}

export function PageLoading() {
  return (
    <div role="status" className="flex min-h-[50vh] items-center justify-center text-fg">
      Loading...
    </div>
  );
}
