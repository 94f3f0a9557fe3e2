// A member photo from the private profile-photos bucket, shown through a short-lived signed URL (fallback avatar).
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '../../data/supabase-client.ts';

export const AVATAR_FALLBACK = '/images/avatar.png';
const SIGNED_URL_SECONDS = 3600;

/** Resolves a stored photo key ("<member id>/<file>") to a URL an <img> can load; absolute paths pass through. */
export function usePhotoUrl(key: string | undefined): string {
  const isStored = !!key && !key.startsWith('/') && !/^https?:/.test(key);
  const { data } = useQuery({
    queryKey: ['photo-url', key],
    enabled: isStored,
    // Renewed well before the signed URL expires.
    staleTime: (SIGNED_URL_SECONDS / 2) * 1000,
    queryFn: async () => {
      const sb = await getSupabase();
      const { data: signed, error } = await sb.storage
        .from('profile-photos')
        .createSignedUrl(key!, SIGNED_URL_SECONDS);
      if (error) throw error;
      return signed.signedUrl;
    },
  });
  if (!key) return AVATAR_FALLBACK;
  if (!isStored) return key;
  return data ?? AVATAR_FALLBACK;
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
