// What the model (or the built-in coach) may be told about an opened conversation, read as the member with
// row-level security deciding (shared by lovy-chat and wingman-draft): the other member's public name and
// interests and the last lines of text, nothing else (lovy-prompt.ts has the per-field policy).
import type { SupabaseClient } from '@supabase/supabase-js';
import { CONVERSATION_LINES_FOR_MODEL, type LovyConversation, type LovyMember } from './lovy-prompt.ts';

export const asStringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The member's own profile columns a model may see (lovy-prompt.ts's MEMBER_FIELDS_FOR_MODEL, read as the member). */
export const MEMBER_COLUMNS_FOR_MODEL = 'name, bio, interests, photos, career, relationship_goals';
/** The agent's columns the prompt is built from. */
export const AGENT_COLUMNS_FOR_MODEL =
  'id, name, description, communication_style, humor_style, system_prompt';

/** The member as the prompt describes them, from their profile row (MEMBER_COLUMNS_FOR_MODEL). */
export function toLovyMember(profile: Record<string, unknown> | null | undefined): LovyMember {
  return {
    name: (profile?.['name'] as string | null) ?? null,
    bio: (profile?.['bio'] as string | null) ?? null,
    interests: asStringList(profile?.['interests']),
    photoCount: asStringList(profile?.['photos']).length,
    career: (profile?.['career'] as string | null) ?? null,
    relationshipGoals: (profile?.['relationship_goals'] as string | null) ?? null,
  };
}

/** The conversation as the model may see it, or undefined when the member is not in it. */
export async function findConversation(
  client: SupabaseClient,
  me: string,
  conversationId: string,
): Promise<LovyConversation | undefined> {
  const { data: conversation } = await client
    .from('conversations')
    .select('participant1_id, participant2_id')
    .eq('id', conversationId)
    .maybeSingle();
  if (!conversation) return undefined;
  const other =
    conversation['participant1_id'] === me
      ? conversation['participant2_id']
      : conversation['participant1_id'];
  const [{ data: otherProfile }, { data: lines }] = await Promise.all([
    client.from('public_profiles').select('name, interests').eq('id', other).maybeSingle(),
    client
      .from('messages')
      .select('sender_id, content')
      .eq('conversation_id', conversationId)
      .eq('type', 'text')
      .order('created_at', { ascending: false })
      .limit(CONVERSATION_LINES_FOR_MODEL),
  ]);
  return {
    otherName: (otherProfile?.['name'] as string | null) ?? null,
    otherInterests: asStringList(otherProfile?.['interests']),
    lastMessages: (lines ?? [])
      .map((m) => ({ fromMe: m['sender_id'] === me, text: String(m['content'] ?? '') }))
      .reverse(),
  };
}
