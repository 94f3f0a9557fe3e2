// Where the PWA finds its backend: build-time VITE_* values (hosted mode), or in self-contained mode the
// origin the app was loaded from, whatever address that is, with the anon key from /app-config.json
// (decision 0053).
import { isOnline } from './network.ts';

export interface AppConfig {
  supabaseUrl: string;
  anonKey: string;
  powersyncUrl?: string;
  /** Who runs this instance, for the legal pages; optional. */
  operatorName?: string;
  operatorContact?: string;
}

const CONFIG_PATH = '/app-config.json';

let pending: Promise<AppConfig> | undefined;

function readBuildTimeConfig(): AppConfig | undefined {
  const url = import.meta.env['VITE_SUPABASE_URL'] as string | undefined;
  const anonKey = import.meta.env['VITE_SUPABASE_ANON_KEY'] as string | undefined;
  if (!url || !anonKey) return undefined;
  const powersyncUrl = import.meta.env['VITE_POWERSYNC_URL'] as string | undefined;
  return { supabaseUrl: url, anonKey, ...(powersyncUrl ? { powersyncUrl } : {}) };
}

/**
 * The backend's address, known at once (no configuration to load): the build-time one, or the origin the app
 * was loaded from.
 */
export function backendUrlNow(): string {
  return readBuildTimeConfig()?.supabaseUrl ?? window.location.origin;
}

/** The copy the service worker keeps (vite.config.ts), read directly with no network: offline, nothing is asked. */
async function cachedRuntimeConfig(): Promise<Response | undefined> {
  if (isOnline() || typeof caches === 'undefined') return undefined;
  return caches.match(CONFIG_PATH).catch(() => undefined);
}

async function fetchRuntimeConfig(): Promise<AppConfig> {
  const res =
    (await cachedRuntimeConfig()) ?? (await fetch(CONFIG_PATH, { headers: { accept: 'application/json' } }));
  if (!res.ok) throw new Error(`Could not load /app-config.json (${res.status})`);
  const body = (await res.json()) as Partial<AppConfig>;
  if (typeof body.anonKey !== 'string') throw new Error('/app-config.json lacks anonKey');
  // The server that served the app is its backend: the same origin, so the CSP's 'self' covers it.
  const origin = window.location.origin;
  return {
    supabaseUrl: origin,
    anonKey: body.anonKey,
    powersyncUrl: origin,
    ...(typeof body.operatorName === 'string' ? { operatorName: body.operatorName } : {}),
    ...(typeof body.operatorContact === 'string' ? { operatorContact: body.operatorContact } : {}),
  };
}

/** The configuration, loaded once; a failed load is retried on the next call. */
export function getAppConfig(): Promise<AppConfig> {
  if (!pending) {
    const built = readBuildTimeConfig();
    pending = built ? Promise.resolve(built) : fetchRuntimeConfig();
    pending.catch(() => {
      pending = undefined;
    });
  }
  return pending;
}
