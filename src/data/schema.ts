// The local replica's tables: the synced ones mirror sync-rules/sync-rules.yaml (schema.test.ts checks it), plus local-only ones.
import { Schema, Table, column } from '@powersync/common';

// PowerSync stores uuid, timestamps, numeric, json and arrays as text (arrays as JSON text), booleans as 0/1.
const { text, integer } = column;

const profiles = new Table({
  name: text,
  birthday: text,
  gender: text,
  looking_for: text,
  relationship_goals: text,
  street_address: text,
  city: text,
  state: text,
  zip_code: text,
  country: text,
  location_lat: text,
  location_lng: text,
  bio: text,
  interests: text,
  career: text,
  industry: text,
  education_level: text,
  languages: text,
  height: text,
  height_unit: text,
  relationship_status: text,
  photos: text,
  email: text,
  is_paused: integer,
  pause_end_date: text,
  match_preferences_completed: integer,
  show_online_status: integer,
  show_distance: integer,
  read_receipts: integer,
  likes_seen_at: text,
  is_verified: integer,
  last_seen: text,
  created_at: text,
  updated_at: text,
});

const public_profiles = new Table({
  name: text,
  age: integer,
  gender: text,
  photos: text,
  bio: text,
  interests: text,
  career: text,
  education_level: text,
  languages: text,
  height: text,
  height_unit: text,
  relationship_goals: text,
  looking_for: text,
  city: text,
  country: text,
  is_verified: integer,
  last_seen: text,
  updated_at: text,
});

/** The row id is the member's id (the rules select user_id as id). */
const match_preferences = new Table({
  min_age: integer,
  max_age: integer,
  genders: text,
  max_distance_band: text,
  relationship_goals: text,
  created_at: text,
  updated_at: text,
});

const profile_answers = new Table(
  {
    user_id: text,
    question_id: integer,
    answer: integer,
    acceptable_answers: text,
    importance: integer,
    created_at: text,
    updated_at: text,
  },
  { indexes: { by_question: ['question_id'] } },
);

const subscriptions = new Table({
  user_id: text,
  plan_id: text,
  billing_cycle: text,
  status: text,
  current_period_end: text,
  /** 1 when a payment-provider customer exists (the ids stay on the server). */
  has_payment_customer: integer,
  created_at: text,
  updated_at: text,
});

const ai_agents = new Table({
  user_id: text,
  name: text,
  description: text,
  avatar: text,
  is_active: integer,
  communication_style: text,
  humor_style: text,
  autonomy_level: text,
  /** When medium or high autonomy began (set in SQL, 0123): the Wingman acts only on matches made since. */
  autonomy_since: text,
  auto_match_threshold: integer,
  personality_traits: text,
  interests: text,
  preferred_topics: text,
  avoid_topics: text,
  system_prompt: text,
  first_message: text,
  voice_id: text,
  created_at: text,
  updated_at: text,
});

/** The member's Wingman switches (0123): the row's id is the member's. */
const wingman_settings = new Table({
  paused: integer,
  daily_like_cap: integer,
  daily_message_cap: integer,
  accept_agent_messages: integer,
  created_at: text,
  updated_at: text,
});

/** What the member's Wingman did and why (0123); written on the server only. */
const agent_activity = new Table(
  {
    user_id: text,
    agent_id: text,
    kind: text,
    target_id: text,
    target_name: text,
    interaction_id: text,
    message_id: text,
    reason: text,
    status: text,
    created_at: text,
    updated_at: text,
  },
  { indexes: { by_created: ['created_at'] } },
);

/** First messages a medium-autonomy agent drafted (0123): the member sends, edits or discards them. */
const agent_drafts = new Table({
  user_id: text,
  agent_id: text,
  conversation_id: text,
  recipient_id: text,
  content: text,
  // The message a reply draft answers (null for a first message).
  reply_to: text,
  status: text,
  created_at: text,
  updated_at: text,
});

/** The member's thumbs on drafts and conversation starters (0123). */
const agent_feedback = new Table({
  user_id: text,
  subject: text,
  subject_ref: text,
  rating: text,
  created_at: text,
});

const lovy_messages = new Table(
  {
    user_id: text,
    agent_id: text,
    role: text,
    content: text,
    /** On an answer: the question it answers. */
    reply_to: text,
    /** On an answer: who wrote it (model, coach or notice), for its label. */
    source: text,
    created_at: text,
  },
  { indexes: { by_created: ['created_at'] } },
);

const notifications = new Table(
  {
    user_id: text,
    type: text,
    title: text,
    body: text,
    link: text,
    data: text,
    read_at: text,
    created_at: text,
  },
  { indexes: { by_created: ['created_at'] } },
);

const blocked_users = new Table({ blocker_id: text, blocked_id: text, reason: text, created_at: text });

const user_interactions = new Table(
  { user_id: text, target_id: text, interaction_type: text, created_at: text },
  { indexes: { by_user: ['user_id'], by_target: ['target_id'] } },
);

const matches = new Table({ user_id_1: text, user_id_2: text, created_at: text });

const conversations = new Table(
  {
    match_id: text,
    participant1_id: text,
    participant2_id: text,
    created_at: text,
    updated_at: text,
    last_message_at: text,
  },
  { indexes: { by_last_message: ['last_message_at'] } },
);

const messages = new Table(
  {
    conversation_id: text,
    sender_id: text,
    recipient_id: text,
    content: text,
    type: text,
    metadata: text,
    status: text,
    created_at: text,
    delivered_at: text,
    read_at: text,
  },
  { indexes: { by_conversation: ['conversation_id', 'created_at'] } },
);

const video_calls = new Table({
  caller_id: text,
  recipient_id: text,
  status: text,
  call_type: text,
  provider: text,
  stream_call_id: text,
  created_at: text,
  updated_at: text,
  answered_at: text,
  ended_at: text,
  ended_by: text,
  duration_seconds: integer,
  connection_quality: text,
});

const game_sessions = new Table({
  player1_id: text,
  player2_id: text,
  game_type: text,
  status: text,
  current_round: integer,
  created_at: text,
  updated_at: text,
  completed_at: text,
});

const game_round_choices = new Table({ round_id: text, player_id: text, choice: text, created_at: text });

const game_rounds = new Table(
  {
    session_id: text,
    round_number: integer,
    question: text,
    player1_choice: text,
    player2_choice: text,
    reactions: text,
    created_at: text,
    updated_at: text,
  },
  { indexes: { by_session: ['session_id', 'round_number'] } },
);

const game_types = new Table({ name: text, description: text, sort_order: integer });

const this_or_that_questions = new Table({ position: integer, text: text, option_a: text, option_b: text });

const story_themes = new Table({
  position: integer,
  title: text,
  description: text,
  opening_line: text,
  category: text,
  difficulty: text,
});

const would_you_rather_prompts = new Table({
  position: integer,
  category: text,
  option_a: text,
  option_b: text,
});

const couple_quiz_questions = new Table({
  position: integer,
  question_type: text,
  question: text,
  options: text,
});

const compatibility_questions = new Table({ category: text, text: text, options: text });

/** The names of the synced tables, exactly as the sync rules emit them. */
export const SYNCED_TABLES = {
  profiles,
  public_profiles,
  match_preferences,
  profile_answers,
  subscriptions,
  ai_agents,
  wingman_settings,
  agent_activity,
  agent_drafts,
  agent_feedback,
  lovy_messages,
  notifications,
  blocked_users,
  user_interactions,
  matches,
  conversations,
  messages,
  video_calls,
  game_sessions,
  game_round_choices,
  game_rounds,
  game_types,
  this_or_that_questions,
  story_themes,
  would_you_rather_prompts,
  couple_quiz_questions,
  compatibility_questions,
};

// Local-only tables never upload and never sync; they are cleared with the replica at sign-out.

/** A message being typed, per conversation (id = conversation id). */
const message_drafts = new Table(
  { conversation_id: text, content: text, updated_at: text },
  { localOnly: true, indexes: { by_conversation: ['conversation_id'] } },
);

/**
 * The last deck from get_discovery_candidates, so a member keeps swiping offline (id = candidate's
 * id). Arrays (interests, photos, languages, looking_for) and explanation are JSON text.
 */
const discovery_deck = new Table(
  {
    position: integer,
    name: text,
    age: integer,
    gender: text,
    city: text,
    country: text,
    bio: text,
    interests: text,
    photos: text,
    career: text,
    education_level: text,
    languages: text,
    height: text,
    height_unit: text,
    relationship_goals: text,
    looking_for: text,
    is_verified: integer,
    last_seen: text,
    distance_band: text,
    compatibility_score: integer,
    explanation: text,
    fetched_at: text,
  },
  { localOnly: true, indexes: { by_position: ['position'] } },
);

/** Per-device preferences (id = key). */
const device_settings = new Table({ key: text, value: text }, { localOnly: true });

export const LOCAL_ONLY_TABLES = { message_drafts, discovery_deck, device_settings };

export const AppSchema = new Schema({ ...SYNCED_TABLES, ...LOCAL_ONLY_TABLES });

export type Database = (typeof AppSchema)['types'];
export type SyncedTableName = keyof typeof SYNCED_TABLES;
export type TableName = keyof Database;
/** A row of a local table as the replica returns it (id included). */
export type ReplicaRow<T extends TableName> = Database[T] & { id: string };
/**
 * Some columns of a replica row (a feature's select list), typed from the schema rather than copied by hand;
 * `Required` lists the columns the server declares NOT NULL, which the replica's types cannot know.
 */
export type ReplicaColumns<
  T extends TableName,
  K extends keyof ReplicaRow<T>,
  Required extends K = never,
> = Pick<ReplicaRow<T>, Exclude<K, Required>> & { [P in Required]: NonNullable<ReplicaRow<T>[P]> };

/**
 * Synced columns whose server type is an array or json(b): the replica keeps them as JSON text, so
 * the connector parses them back before upload (schema.test.ts checks this list against the database).
 */
export const STRUCTURED_COLUMNS: Partial<Record<SyncedTableName, readonly string[]>> = {
  ai_agents: ['avoid_topics', 'interests', 'personality_traits', 'preferred_topics'],
  compatibility_questions: ['options'],
  couple_quiz_questions: ['options'],
  game_rounds: ['question', 'reactions'],
  match_preferences: ['genders', 'relationship_goals'],
  messages: ['metadata'],
  notifications: ['data'],
  profile_answers: ['acceptable_answers'],
  profiles: ['interests', 'languages', 'looking_for', 'photos'],
  public_profiles: ['interests', 'languages', 'looking_for', 'photos'],
};
