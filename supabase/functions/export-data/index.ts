// Exports everything the caller's account holds as one JSON file. No body; answers the file (attachment).
// Reads go through a client carrying the caller's own token, so row-level security decides exactly as it
// does for the app: another member appears only through public_profiles' public columns.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { getEnv } from '../_shared/env.ts';
import { corsHeaders, findBearerToken, json, preflight } from '../_shared/http.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createServiceClient, findCaller } from '../_shared/supabase.ts';

/** Rows per request: the REST layer caps reads at 1000 like Supabase's default max rows. */
const PAGE_SIZE = 1000;
/** Ids per `in` filter, so the query string stays well under URL limits. */
const ID_CHUNK = 100;

/** The columns of another member anyone matched or liked may see (the public card). */
export const PUBLIC_PROFILE_COLUMNS =
  'id, name, age, gender, photos, bio, interests, career, education_level, languages, height, height_unit, relationship_goals, looking_for, city, country, is_verified';

class NoRealtimeTransport {
  constructor() {
    throw new Error('Realtime is not available inside functions');
  }
}

function createCallerClient(token: string): SupabaseClient {
  return createClient(getEnv('SUPABASE_URL'), getEnv('SUPABASE_ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtimeTransport as never },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

type Row = Record<string, unknown>;
type Filter = (q: ReturnType<ReturnType<SupabaseClient['from']>['select']>) => typeof q;

/** All rows of a table matching the filter, page by page in a stable order. */
async function getAllRows(
  client: SupabaseClient,
  table: string,
  filter: Filter,
  columns = '*',
  orderBy = 'id',
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let from = 0; ; from += PAGE_SIZE) {
    const { data, error } = await filter(client.from(table).select(columns))
      .order(orderBy)
      .range(from, from + PAGE_SIZE - 1);
    if (error) throw new Error(`export of ${table} failed: ${error.message}`);
    const page = (data ?? []) as unknown as Row[];
    rows.push(...page);
    if (page.length < PAGE_SIZE) return rows;
  }
}

function collectOtherIds(me: string, rows: Row[], keys: string[], into: Set<string>): void {
  for (const row of rows)
    for (const key of keys) {
      const value = row[key];
      if (typeof value === 'string' && value !== me) into.add(value);
    }
}

/** The export document: every table the member's account holds, newest schema first. */
export async function getAccountExport(client: SupabaseClient, me: string, email: string | undefined) {
  const own = (table: string, column = 'user_id') => getAllRows(client, table, (q) => q.eq(column, me));
  const [profile, matchPreferences, profileAnswers, subscriptions, aiAgents, lovyMessages, notifications] =
    await Promise.all([
      own('profiles', 'id'),
      getAllRows(client, 'match_preferences', (q) => q.eq('user_id', me), '*', 'user_id'),
      own('profile_answers'),
      own('subscriptions'),
      own('ai_agents'),
      own('lovy_messages'),
      own('notifications'),
    ]);
  const [likesSent, likesReceived, blocks, reports, matches, conversations, messages] = await Promise.all([
    own('user_interactions'),
    getAllRows(client, 'user_interactions', (q) => q.eq('target_id', me).eq('interaction_type', 'like')),
    own('blocked_users', 'blocker_id'),
    own('reports', 'reporter_id'),
    getAllRows(client, 'matches', (q) => q.or(`user_id_1.eq.${me},user_id_2.eq.${me}`)),
    getAllRows(client, 'conversations', (q) => q.or(`participant1_id.eq.${me},participant2_id.eq.${me}`)),
    getAllRows(client, 'messages', (q) => q.or(`sender_id.eq.${me},recipient_id.eq.${me}`)),
  ]);
  const [videoCalls, gameSessions, gameChoices, deletionRequests] = await Promise.all([
    getAllRows(client, 'video_calls', (q) => q.or(`caller_id.eq.${me},recipient_id.eq.${me}`)),
    getAllRows(client, 'game_sessions', (q) => q.or(`player1_id.eq.${me},player2_id.eq.${me}`)),
    own('game_round_choices', 'player_id'),
    own('account_deletion_requests'),
  ]);
  // The audit log is not readable by members; the function reads the caller's own rows only.
  const securityEvents = await getAllRows(createServiceClient(), 'security_events', (q) =>
    q.eq('user_id', me),
  );

  const others = new Set<string>();
  collectOtherIds(me, likesSent, ['target_id'], others);
  collectOtherIds(me, likesReceived, ['user_id'], others);
  collectOtherIds(me, matches, ['user_id_1', 'user_id_2'], others);
  const ids = [...others];
  const otherMembers: Row[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    otherMembers.push(
      ...(await getAllRows(client, 'public_profiles', (q) => q.in('id', chunk), PUBLIC_PROFILE_COLUMNS)),
    );
  }

  return {
    format: 'heartsync-account-export',
    version: 1,
    exported_at: new Date().toISOString(),
    account: { id: me, email: email ?? null },
    profile: profile[0] ?? null,
    match_preferences: matchPreferences[0] ?? null,
    profile_answers: profileAnswers,
    subscriptions,
    ai_agents: aiAgents,
    lovy_messages: lovyMessages,
    notifications,
    likes_sent: likesSent,
    likes_received: likesReceived,
    blocked_users: blocks,
    reports_filed: reports,
    matches,
    conversations,
    messages,
    video_calls: videoCalls,
    game_sessions: gameSessions,
    game_choices: gameChoices,
    account_deletion_requests: deletionRequests,
    security_events: securityEvents,
    other_members: otherMembers,
  };
}

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ success: false, error: 'Method not allowed' }, 405);
  const user = await findCaller(req);
  const token = findBearerToken(req);
  if (!user || !token) return json({ success: false, error: 'Not authenticated' }, 401);
  const doc = await getAccountExport(createCallerClient(token), user.id, user.email);
  const day = doc.exported_at.slice(0, 10);
  return new Response(JSON.stringify(doc, null, 2), {
    status: 200,
    headers: {
      ...corsHeaders,
      'access-control-expose-headers': 'content-disposition',
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="heartsync-export-${day}.json"`,
      'cache-control': 'no-store',
    },
  });
}

export default handler;
serveWhenDeno(handler);
