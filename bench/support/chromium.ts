// The Chromium the benchmarks and the end-to-end tests launch: where it is and the switches they share.

/** Debian's Chromium unless CHROMIUM_PATH names another. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Switches for a quiet, reproducible browser in a container: no sandbox (no user namespaces here), no GPU, and no
 * traffic of its own (QUIC, background networking, component updates, sync) next to what is measured or tested.
 */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // More switches for an experiment, split on spaces: CHROMIUM_ARGS='--disable-features=BackgroundResourceFetch'.
  ...(process.env['CHROMIUM_ARGS']?.split(' ').filter(Boolean) ?? []),
];
