// Reads a Chromium trace of an app start (bench:offline-start's BENCH_TRACE) for V8's code cache.

/**
 * How many of the page's scripts V8 compiled from a code cache (`consumedCacheSize` on `v8.compileModule` and
 * `v8.compile`), from the page's own thread (the one that compiled the app's entry). Chromium keeps a code cache
 * of each script for the next start; a cold launch that reads none compiles the app's code again (decision 0102).
 */
export function codeCacheReads(events: unknown[]): {
  modules: number;
  modulesFromCache: number;
  classic: number;
  classicFromCache: number;
} {
  interface CompileEvent {
    name?: string;
    pid?: number;
    tid?: number;
    args?: { data?: { url?: string; consumedCacheSize?: number } };
  }
  const compiles = (events as CompileEvent[]).filter(
    (e) => e.name === 'v8.compileModule' || e.name === 'v8.compile',
  );
  const entry = compiles.find(
    (e) => e.name === 'v8.compileModule' && /\/assets\/index-/.test(e.args?.data?.url ?? ''),
  );
  const onPage = entry
    ? compiles.filter((e) => e.pid === entry.pid && e.tid === entry.tid && e.args?.data?.url)
    : [];
  const count = (name: string, fromCache: boolean) =>
    onPage.filter((e) => e.name === name && (!fromCache || (e.args?.data?.consumedCacheSize ?? 0) > 0))
      .length;
  return {
    modules: count('v8.compileModule', false),
    modulesFromCache: count('v8.compileModule', true),
    classic: count('v8.compile', false),
    classicFromCache: count('v8.compile', true),
  };
}
