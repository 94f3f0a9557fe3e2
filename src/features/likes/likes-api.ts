// The likes' calls to the server: the unread count (fresh 1 min) and mark-seen. The likes received are read from
// the replica, pages of 20, and the like and skip writes go to it: likes-data.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '../../data/supabase-client.ts';

/** How many more likes the page lists each time its end scrolls into view. */
export const LIKES_PAGE_SIZE = 20;
export const UNREAD_COUNT_STALE_MS = 60 * 1000;
export const UNREAD_LIKES_KEY = ['unread-likes-count'] as const;

/** One like received, as the page shows it (the shape of the server's get_received_likes rows). */
export interface ReceivedLike {
  id: string;
  liker_id: string;
  name: string | null;
  age: number | null;
  city: string | null;
  bio: string | null;
  interests: string[];
  liker_photos: string[];
  is_verified: boolean;
  created_at: string;
}

export function useUnreadLikesCount(enabled = true) {
  return useQuery({
    queryKey: UNREAD_LIKES_KEY,
    enabled,
    staleTime: UNREAD_COUNT_STALE_MS,
    refetchInterval: UNREAD_COUNT_STALE_MS,
    queryFn: async () => {
      const sb = await getSupabase();
      const { data, error } = await sb.rpc('get_unread_likes_count');
      if (error) throw error;
      return typeof data === 'number' ? data : 0;
    },
  });
}

export function useMarkLikesSeen() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const sb = await getSupabase();
      const { error } = await sb.rpc('mark_likes_seen');
      if (error) throw error;
    },
    onSuccess: () => qc.setQueryData(UNREAD_LIKES_KEY, 0),
  });
}
