import { describe, expect, it } from 'vitest';
import { codeCacheReads } from './code-cache.ts';

const page = { pid: 1, tid: 10 };
const compile = (name: string, url: string, consumed?: number, thread = page) => ({
  name,
  ...thread,
  args: { data: { url, ...(consumed === undefined ? {} : { consumedCacheSize: consumed }) } },
});

describe('codeCacheReads', () => {
  it("counts the page thread's modules and classic scripts, and those compiled from a code cache", () => {
    const events = [
      { name: 'RunTask', ...page },
      compile('v8.compileModule', 'http://127.0.0.1:3000/assets/index-Ab12.js', 396_456),
      compile('v8.compileModule', 'http://127.0.0.1:3000/assets/react-Cd34.js'),
      compile('v8.compileModule', 'http://127.0.0.1:3000/assets/replica-Ef56.js', 0),
      compile('v8.compile', 'http://127.0.0.1:3000/assets/vendor-Gh78.js', 378_200),
      compile('v8.compile', 'http://127.0.0.1:3000/assets/other-Ij90.js'),
      // The service worker's and the database worker's scripts run on other threads.
      compile('v8.compile', 'http://127.0.0.1:3000/sw.js', 16_832, { pid: 2, tid: 20 }),
      compile('v8.compileModule', 'http://127.0.0.1:3000/assets/worker-Kl12.js', 9_000, { pid: 1, tid: 11 }),
    ];
    expect(codeCacheReads(events)).toEqual({
      modules: 3,
      modulesFromCache: 1,
      classic: 2,
      classicFromCache: 1,
    });
  });

  it("counts nothing when the trace has no compile of the app's entry", () => {
    const events = [compile('v8.compileModule', 'http://127.0.0.1:3000/assets/react-Cd34.js', 100)];
    expect(codeCacheReads(events)).toEqual({
      modules: 0,
      modulesFromCache: 0,
      classic: 0,
      classicFromCache: 0,
    });
  });
});
