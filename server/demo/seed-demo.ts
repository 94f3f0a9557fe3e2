// Seeds the demo community on an empty database: synthetic members with illustrated faces (two photos each, drawn
// offline by DiceBear's "lorelei", CC0), answers and preferences, and a demo account.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createAvatar } from '@dicebear/core';
import { lorelei } from '@dicebear/collection';
import sharp from 'sharp';
import { hashPassword } from '../auth/passwords.ts';
import type { Database, Queryable } from '../db/database.ts';
import { FileStore } from '../storage/file-store.ts';
import { generateDemoMembers, type DemoMember } from './demo-data.ts';
import type { DistanceBand } from '../../src/domain/distance-band.ts';

export const DEMO_EMAIL = 'demo@heartsync.demo';
/** Around London (the demo account's town), plus six in each of the spread cities (demo-data.ts). */
export const DEMO_MEMBER_COUNT = 240;
/** Photos per synthetic member: the same face, framed twice. */
export const DEMO_PHOTOS_PER_MEMBER = 2;
/** The demo account's distance preference: London and the towns around it (about 85 members), not the world. */
export const DEMO_DISTANCE_BAND: DistanceBand = '50-100 km';
/** How many synthetic members have already liked the demo account, so Likes is not empty. */
export const DEMO_LIKERS = 12;
/** How many of them the demo account has liked back, so Matches and Messages are not empty either. */
export const DEMO_MATCHES = 2;
/** The first match's conversation so far: who wrote (the match or the demo account), how long ago. */
export const DEMO_CONVERSATION: readonly { from: 'match' | 'demo'; text: string; minutesAgo: number }[] = [
  { from: 'match', text: 'Hi! I read that you love cooking. What is your best dish?', minutesAgo: 26 * 60 },
  { from: 'demo', text: 'Probably my shakshuka, for a slow Sunday. And yours?', minutesAgo: 25 * 60 },
  {
    from: 'match',
    text: 'Risotto, stirred slowly with music on. Someone will have to judge it one day.',
    minutesAgo: 40,
  },
];
const CREDENTIALS_FILE = 'demo-account.json';
const AVATAR_SIZE = 640;
const PHOTO_BUCKET = 'profile-photos';

export interface DemoSeedResult {
  seeded: boolean;
  email?: string;
  /** Known only when this call seeded, or read back from the data folder on later starts. */
  password?: string;
  members?: number;
}

export interface DemoSeedOptions {
  dataDir: string;
  count?: number;
  today?: Date;
}

interface StoredFile {
  bucket: string;
  version: string;
}

/** Seeds only when no member exists yet; returns the demo account's credentials when known. */
export async function seedDemoCommunity(db: Database, options: DemoSeedOptions): Promise<DemoSeedResult> {
  const existing = await db.query<{ n: number }>(`select count(*)::int as n from public.profiles`);
  if ((existing.rows[0]?.n ?? 0) > 0) {
    const saved = await readSavedCredentials(options.dataDir);
    const demo = await db.query(`select 1 from auth.users where email = $1`, [DEMO_EMAIL]);
    return demo.rows.length > 0 && saved ? { seeded: false, ...saved } : { seeded: false };
  }
  const members = generateDemoMembers(options.count ?? DEMO_MEMBER_COUNT, options.today);
  const password = crypto.randomBytes(9).toString('base64url');
  const store = new FileStore(options.dataDir);
  const placed: StoredFile[] = [];
  const [passwordHash, avatars] = await Promise.all([hashPassword(password), renderAvatars(members)]);
  try {
    await db.transaction(async (tx) => {
      // A concurrent start may have seeded meanwhile: the lock plus the re-check keep it to one seed.
      await tx.query(`select pg_advisory_xact_lock(hashtext('heartsync-demo-seed'))`);
      const again = await tx.query<{ n: number }>(`select count(*)::int as n from public.profiles`);
      if ((again.rows[0]?.n ?? 0) > 0) throw new AlreadySeeded();
      const ids = await insertUsers(tx, members, passwordHash);
      const demoId = ids[ids.length - 1]!;
      const photoKeys = await storeAvatars(tx, store, ids, avatars, placed);
      await updateProfiles(tx, ids, [...members, getDemoProfile(options.today)], photoKeys);
      await insertPreferences(tx, ids, members);
      await insertAnswers(tx, ids);
      await insertLikes(tx, ids.slice(0, DEMO_LIKERS), demoId);
      await insertMatches(tx, ids.slice(0, DEMO_MATCHES), demoId);
    });
  } catch (e) {
    await Promise.all(placed.map((f) => store.remove(f.bucket, f.version).catch(() => {})));
    if (e instanceof AlreadySeeded) return { seeded: false };
    throw e;
  }
  await saveCredentials(options.dataDir, { email: DEMO_EMAIL, password });
  return { seeded: true, email: DEMO_EMAIL, password, members: members.length + 1 };
}

class AlreadySeeded extends Error {}

/** The demo account: a complete profile in London, open to everyone within reach, so its deck is full. */
function getDemoProfile(today = new Date()): DemoMember {
  const born = new Date(Date.UTC(today.getUTCFullYear() - 30, today.getUTCMonth(), today.getUTCDate() - 40));
  return {
    name: 'Demo Member',
    email: DEMO_EMAIL,
    gender: 'woman',
    birthday: born.toISOString().slice(0, 10),
    looking_for: ['woman', 'man', 'non-binary'],
    relationship_goals: 'long-term',
    relationship_status: 'single',
    city: 'London',
    country: 'United Kingdom',
    location_lat: 51.5,
    location_lng: -0.1,
    bio: 'This is the demo account: look around, like people back and see the match popup.',
    interests: ['travel', 'music', 'cooking'],
    career: 'Product manager',
    industry: 'Technology',
    education_level: 'master',
    languages: ['English'],
    height: 168,
    min_age: 18,
    max_age: 120,
    hue: 330,
  };
}

// Lorelei's hair variants that read as short, and the rest (picked from the style's own preview sheet).
const SHORT_HAIR = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 25, 27, 28, 44, 47];
const LONG_HAIR = Array.from({ length: 48 }, (_, i) => i + 1).filter((v) => !SHORT_HAIR.includes(v));
const SKIN = ['f9e0c7', 'f2d3b1', 'ecad80', 'd08b5b', 'ae5d29', '694d3d'];
const HAIR_COLOR = ['000000', '2c1b18', '4a312c', '724133', 'a55728', 'b58143', 'd6b370', '9e9e9e'];

function hsl(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => l / 100 - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)]
    .map((x) =>
      Math.round(x * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
}

export interface AvatarOf {
  name: string;
  gender: string;
  hue: number;
}

/** A member's face as SVG: the same person in every photo (seeded by name), framed differently per photo. */
export function getAvatarSvg(m: AvatarOf, photo: number): string {
  const pick = <T>(list: readonly T[], salt: number): T => {
    let h = salt;
    for (const ch of m.name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
    return list[h % list.length]!;
  };
  const hair =
    m.gender === 'man' ? SHORT_HAIR : m.gender === 'woman' ? LONG_HAIR : [...SHORT_HAIR, ...LONG_HAIR];
  return createAvatar(lorelei, {
    seed: m.name,
    size: AVATAR_SIZE,
    flip: photo % 2 === 1,
    scale: photo === 0 ? 100 : 115,
    backgroundColor: [hsl((m.hue + photo * 40) % 360, 70, photo === 0 ? 86 : 78)],
    hair: [`variant${String(pick(hair, 1)).padStart(2, '0')}`] as never,
    skinColor: [pick(SKIN, 2)],
    hairColor: [pick(HAIR_COLOR, 3)],
    beardProbability: m.gender === 'man' ? 45 : 0,
    hairAccessoriesProbability: m.gender === 'man' ? 0 : 20,
    earringsProbability: m.gender === 'man' ? 5 : 40,
    glassesProbability: 15,
  }).toString();
}

/** DEMO_PHOTOS_PER_MEMBER WebPs per member (demo account last); drawn offline, no external images. */
async function renderAvatars(members: DemoMember[]): Promise<Buffer[][]> {
  const all: AvatarOf[] = [...members, { name: 'Demo Member', gender: 'woman', hue: 330 }];
  const out: Buffer[][] = [];
  // Small batches: sharp is multi-threaded already; this only overlaps the per-image overhead.
  for (let i = 0; i < all.length; i += 8) {
    const batch = all.slice(i, i + 8);
    out.push(
      ...(await Promise.all(
        batch.map((m) =>
          Promise.all(
            Array.from({ length: DEMO_PHOTOS_PER_MEMBER }, (_, photo) =>
              sharp(Buffer.from(getAvatarSvg(m, photo)))
                .webp({ quality: 75 })
                .toBuffer(),
            ),
          ),
        ),
      )),
    );
  }
  return out;
}

async function insertUsers(tx: Queryable, members: DemoMember[], demoHash: string): Promise<string[]> {
  const rows = [
    ...members.map((m) => ({ email: m.email, name: m.name, hash: null })),
    {
      email: DEMO_EMAIL,
      name: 'Demo Member',
      hash: demoHash,
    },
  ].map((r) => ({ ...r, id: crypto.randomUUID() }));
  // Synthetic members have no password: only the demo account can sign in.
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data)
     select '00000000-0000-0000-0000-000000000000', x.id, 'authenticated', 'authenticated', x.email, x.hash, now(),
       '{"provider":"email","providers":["email"]}'::jsonb, jsonb_build_object('name', x.name, 'demo', true)
     from jsonb_to_recordset($1::jsonb) as x(id uuid, email text, name text, hash text)`,
    [JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}

async function storeAvatars(
  tx: Queryable,
  store: FileStore,
  ids: string[],
  avatars: Buffer[][],
  placed: StoredFile[],
): Promise<string[][]> {
  const rows: { bucket_id: string; name: string; owner: string; metadata: object; version: string }[] = [];
  const names: string[][] = [];
  for (let i = 0; i < ids.length; i++)
    for (const [photo, data] of (avatars[i] ?? []).entries()) {
      const version = crypto.randomUUID();
      const tmp = await store.writeTemp(data);
      await store.place(tmp, PHOTO_BUCKET, version);
      placed.push({ bucket: PHOTO_BUCKET, version });
      const name = `${ids[i]}/photo-${photo + 1}.webp`;
      (names[i] ??= []).push(name);
      rows.push({
        bucket_id: PHOTO_BUCKET,
        name,
        owner: ids[i]!,
        version,
        metadata: {
          eTag: `"${crypto.createHash('md5').update(data).digest('hex')}"`,
          size: data.length,
          mimetype: 'image/webp',
          cacheControl: '3600',
          lastModified: new Date().toISOString(),
          contentLength: data.length,
          httpStatusCode: 200,
          width: AVATAR_SIZE,
          height: AVATAR_SIZE,
        },
      });
    }
  await tx.query(
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
     select x.bucket_id, x.name, x.owner, x.owner::text, x.metadata, x.version
     from jsonb_to_recordset($1::jsonb) as x(bucket_id text, name text, owner uuid, metadata jsonb, version text)`,
    [JSON.stringify(rows)],
  );
  return names;
}

async function updateProfiles(tx: Queryable, ids: string[], members: DemoMember[], photos: string[][]) {
  const rows = members.map((m, i) => ({ ...m, id: ids[i], photos: photos[i] ?? [] }));
  await tx.query(
    `update public.profiles p set
       birthday = x.birthday, gender = x.gender, looking_for = x.looking_for, relationship_goals = x.relationship_goals,
       relationship_status = x.relationship_status, city = x.city, country = x.country,
       location_lat = x.location_lat, location_lng = x.location_lng, bio = x.bio, interests = x.interests,
       career = x.career, industry = x.industry, education_level = x.education_level, languages = x.languages,
       height = x.height, height_unit = 'cm', photos = x.photos, match_preferences_completed = true,
       last_seen = now() - (random() * interval '3 days')
     from (
       select r.id, r.birthday, r.gender, r.relationship_goals, r.relationship_status, r.city, r.country,
         r.location_lat, r.location_lng, r.bio, r.career, r.industry, r.education_level, r.height,
         array(select jsonb_array_elements_text(r.looking_for)) as looking_for,
         array(select jsonb_array_elements_text(r.interests)) as interests,
         array(select jsonb_array_elements_text(r.languages)) as languages,
         array(select jsonb_array_elements_text(r.photos)) as photos
       from jsonb_to_recordset($1::jsonb) as r(id uuid, birthday date, gender text, relationship_goals text,
         relationship_status text, city text, country text, location_lat numeric, location_lng numeric, bio text,
         career text, industry text, education_level text, height numeric, looking_for jsonb, interests jsonb,
         languages jsonb, photos jsonb)
     ) x
     where p.id = x.id`,
    [JSON.stringify(rows)],
  );
}

async function insertPreferences(tx: Queryable, ids: string[], members: DemoMember[]) {
  const rows: {
    id: string | undefined;
    min_age: number;
    max_age: number;
    genders: readonly string[];
    band?: string;
  }[] = members.map((m, i) => ({
    id: ids[i],
    min_age: m.min_age,
    max_age: m.max_age,
    genders: m.looking_for,
  }));
  // The demo account wants everyone within reach of London (DEMO_DISTANCE_BAND): its deck opened on members in
  // Guangzhou and Seoul ("More than 100 km away") before the ones around it.
  rows.push({ id: ids[ids.length - 1], min_age: 18, max_age: 120, genders: [], band: DEMO_DISTANCE_BAND });
  await tx.query(
    `insert into public.match_preferences (user_id, min_age, max_age, genders, max_distance_band)
     select x.id, x.min_age, x.max_age, array(select jsonb_array_elements_text(x.genders)), x.band
     from jsonb_to_recordset($1::jsonb) as x(id uuid, min_age int, max_age int, genders jsonb, band text)`,
    [JSON.stringify(rows)],
  );
}

/** About a third of the questionnaire per member, answers derived from a hash so they vary but stay stable. */
async function insertAnswers(tx: Queryable, ids: string[]) {
  await tx.query(
    `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
     select u.id, q.id, a.answer,
       case when a.h % 3 = 0 then array[a.answer]::smallint[]
         else array[a.answer, (a.answer + 1) % cardinality(q.options)]::smallint[] end,
       (a.h % 4)::smallint
     from unnest($1::uuid[]) as u(id)
     cross join public.compatibility_questions q
     cross join lateral (
       select (abs(hashtext(u.id::text || q.id::text)::bigint) % cardinality(q.options))::smallint as answer,
         abs(hashtext(q.id::text || u.id::text)::bigint) as h
     ) a
     where (abs(hashtext(u.id::text)::bigint) + q.id) % 3 = 0 or q.id <= 6`,
    [ids],
  );
}

async function insertLikes(tx: Queryable, likers: string[], demoId: string) {
  await tx.query(
    `insert into public.user_interactions (user_id, target_id, interaction_type)
     select l, $2::uuid, 'like' from unnest($1::uuid[]) as l`,
    [likers, demoId],
  );
}

/**
 * The demo account likes its first likers back; the SQL rules make the matches and their conversations, as for
 * any member. The first match has started talking: the last message is unread, so Messages shows a badge.
 */
async function insertMatches(tx: Queryable, matched: string[], demoId: string) {
  await tx.query(
    `insert into public.user_interactions (user_id, target_id, interaction_type)
     select $1::uuid, m, 'like' from unnest($2::uuid[]) as m`,
    [demoId, matched],
  );
  // Matched two days ago, so the conversation's times read naturally.
  await tx.query(
    `update public.matches set created_at = now() - interval '2 days'
     where user_id_1 = any ($1::uuid[]) or user_id_2 = any ($1::uuid[])`,
    [matched],
  );
  const partner = matched[0];
  if (!partner) return;
  const rows = DEMO_CONVERSATION.map((m, i) => ({
    id: crypto.randomUUID(),
    sender: m.from === 'demo' ? demoId : partner,
    recipient: m.from === 'demo' ? partner : demoId,
    text: m.text,
    minutes_ago: m.minutesAgo,
    // Every message before the last has been read (each was answered); the last waits for the demo account.
    status: i < DEMO_CONVERSATION.length - 1 ? 'read' : 'sent',
  }));
  await tx.query(
    `insert into public.messages (id, conversation_id, sender_id, recipient_id, content)
     select x.id, c.id, x.sender, x.recipient, x.text
     from jsonb_to_recordset($1::jsonb) as x(id uuid, sender uuid, recipient uuid, text text)
     join public.conversations c
       on c.participant1_id = least(x.sender, x.recipient) and c.participant2_id = greatest(x.sender, x.recipient)`,
    [JSON.stringify(rows)],
  );
  // Written now (the insert rules stamp the time), dated as the conversation went.
  await tx.query(
    `update public.messages m set created_at = now() - x.minutes_ago * interval '1 minute', status = x.status
     from jsonb_to_recordset($1::jsonb) as x(id uuid, minutes_ago int, status text) where m.id = x.id`,
    [JSON.stringify(rows)],
  );
  // Their notifications (and the matches') say when, as the messages do; a message answered was read.
  await tx.query(
    `update public.notifications n set created_at = m.created_at,
       read_at = case when m.status = 'read' then m.created_at end
     from public.messages m
     where n.type = 'message' and n.data->>'message_id' = m.id::text and m.id = any ($1::uuid[])`,
    [rows.map((r) => r.id)],
  );
  await tx.query(
    `update public.notifications n set created_at = mt.created_at
     from public.matches mt
     where n.type = 'match' and n.data->>'match_id' = mt.id::text
       and (mt.user_id_1 = any ($1::uuid[]) or mt.user_id_2 = any ($1::uuid[]))`,
    [matched],
  );
  await tx.query(
    `update public.conversations c set created_at = now() - interval '2 days',
       last_message_at = (select max(m.created_at) from public.messages m where m.conversation_id = c.id)
     where c.participant1_id = any ($1::uuid[]) or c.participant2_id = any ($1::uuid[])`,
    [matched],
  );
}

async function readSavedCredentials(
  dataDir: string,
): Promise<{ email: string; password: string } | undefined> {
  try {
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as unknown;
    if (saved && typeof saved === 'object' && 'email' in saved && 'password' in saved) {
      const { email, password } = saved as { email: unknown; password: unknown };
      if (typeof email === 'string' && typeof password === 'string') return { email, password };
    }
  } catch {
    /* not seeded by this data folder, or unreadable: nothing to print */
  }
  return undefined;
}

/** Kept beside the database (mode 600) so later starts can print the same credentials again. */
async function saveCredentials(dataDir: string, creds: { email: string; password: string }) {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(creds), { mode: 0o600 });
}
