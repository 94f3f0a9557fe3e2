// The likes' calls to the server: received likes (pages of 20, fresh 2 min), the unread count (fresh 1 min) and
// mark-seen. The like and skip writes go to the replica: likes-data.ts.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '../../data/supabase-client.ts';

export const LIKES_PAGE_SIZE = 20;
export const RECEIVED_LIKES_STALE_MS = 2 * 60 * 1000;
export const UNREAD_COUNT_STALE_MS = 60 * 1000;
export const RECEIVED_LIKES_KEY = ['received-likes'] as const;
export const UNREAD_LIKES_KEY = ['unread-likes-count'] as const;

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

export function useReceivedLikes() {
  return useInfiniteQuery({
    queryKey: RECEIVED_LIKES_KEY,
    staleTime: RECEIVED_LIKES_STALE_MS,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const sb = await getSupabase();
      const { data, error } = await sb.rpc('get_received_likes', {
        limit_count: LIKES_PAGE_SIZE,
        offset_count: pageParam,
      });
      if (error) throw error;
      return (data ?? []) as ReceivedLike[];
    },
    getNextPageParam: (last, pages) =>
      last.length < LIKES_PAGE_SIZE ? undefined : pages.reduce((n, p) => n + p.length, 0),
  });
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
