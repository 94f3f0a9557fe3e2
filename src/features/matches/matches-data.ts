// The member's matches from the replica: the other member's public profile and the last message of the pair.
import { useQuery, type ReplicaQueryOptions } from '../../data/replica.tsx';

export interface MatchRow {
  id: string;
  other_id: string;
  created_at: string | null;
  name: string | null;
  age: number | null;
  city: string | null;
  photos: string | null;
  conversation_id: string | null;
  last_message: string | null;
  last_message_at: string | null;
}

/**
 * Matches newest activity first; a match whose public profile has not synced yet still shows. A member this
 * one blocked leaves the list at once (the server ends the match once the block uploads).
 */
export function useMatches(me: string, options?: ReplicaQueryOptions) {
  return useQuery<MatchRow>(
    `select m.id, o.other_id, m.created_at, pp.name, pp.age, pp.city, pp.photos, c.id as conversation_id,
       (select content from messages x where x.conversation_id = c.id and x.type = 'text'
        order by x.created_at desc limit 1) as last_message,
       c.last_message_at
     from matches m
     join (select id, case when user_id_1 = ? then user_id_2 else user_id_1 end as other_id from matches) o on o.id = m.id
     left join public_profiles pp on pp.id = o.other_id
     left join conversations c on c.match_id = m.id
     where (m.user_id_1 = ? or m.user_id_2 = ?)
       and not exists (select 1 from blocked_users b where b.blocker_id = ? and b.blocked_id = o.other_id)
     order by coalesce(c.last_message_at, m.created_at) desc`,
    [me, me, me, me],
    options,
  );
}
