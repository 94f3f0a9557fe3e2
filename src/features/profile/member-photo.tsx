// A member photo from the private profile-photos bucket, shown through a short-lived signed URL (fallback avatar).
import { useQuery } from '@tanstack/react-query';
import { getAppConfig } from '../../data/app-config.ts';
import { isOnline } from '../../data/network.ts';
import { getSupabase } from '../../data/supabase-client.ts';
import { createPhotoSigner } from './photo-signing.ts';

export const AVATAR_FALLBACK = '/images/avatar.png';
const SIGNED_URL_SECONDS = 600;
const BUCKET = 'profile-photos';

/**
 * With no network a URL cannot be signed: the photo's signed address without a token. The service worker
 * keys its photo cache by that address (vite.config.ts), so a photo seen before still shows offline; one
 * never seen fails to load and the avatar shows.
 */
async function offlinePhotoUrl(key: string): Promise<string> {
  const { supabaseUrl } = await getAppConfig();
  const name = key.split('/').map(encodeURIComponent).join('/');
  return `${supabaseUrl.replace(/\/+$/, '')}/storage/v1/object/sign/${BUCKET}/${name}`;
}

/** Every photo URL of a moment in one storage call (issue 21). */
const signPhoto = createPhotoSigner(async () => {
  const sb = await getSupabase();
  return async (keys) => {
    const { data, error } = await sb.storage.from(BUCKET).createSignedUrls(keys, SIGNED_URL_SECONDS);
    if (error) throw error;
    return data;
  };
});

/**
 * Resolves a stored photo key ("<member id>/<file>") to a URL an <img> can load; absolute paths pass through.
 * Undefined while a stored photo's URL is on its way; the avatar from its first failed attempt (retries go on
 * behind it, and a later success shows the photo).
 */
export function usePhotoUrl(key: string | undefined): string | undefined {
  const isStored = !!key && !key.startsWith('/') && !/^https?:/.test(key);
  const { data, isError, failureCount } = useQuery({
    queryKey: ['photo-url', key],
    enabled: isStored,
    // Runs offline too (the default pauses until online), to answer with the cached photo's address.
    networkMode: 'always',
    // A signed URL is renewed well before it expires; the offline address as soon as the network is back.
    staleTime: (query) => (query.state.data?.offline ? 0 : (SIGNED_URL_SECONDS / 2) * 1000),
    queryFn: async () => {
      if (!isOnline()) return { url: await offlinePhotoUrl(key!), offline: true };
      return { url: await signPhoto(key!), offline: false };
    },
  });
  if (!key) return AVATAR_FALLBACK;
  if (!isStored) return key;
  if (data) return data.url;
  return isError || failureCount > 0 ? AVATAR_FALLBACK : undefined;
}

export function MemberPhoto({
  path,
  alt,
  className,
}: {
  path: string | undefined;
  alt: string;
  className?: string;
}) {
  const src = usePhotoUrl(path);
  // While the photo's address is signed: a quiet shape of the photo's size, not the "no photo" avatar,
  // which read as a member without photos for a moment before every photo.
  if (src === undefined)
    return (
      <span
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        aria-busy="true"
        className={`block bg-subtle motion-safe:animate-pulse ${className ?? ''}`}
      />
    );
  return (
    <img
      src={src}
      alt={alt}
      className={className}
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(AVATAR_FALLBACK)) e.currentTarget.src = AVATAR_FALLBACK;
      }}
    />
  );
}

/** Parses a replica array column (JSON text) or an RPC array. */
export function parseList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
