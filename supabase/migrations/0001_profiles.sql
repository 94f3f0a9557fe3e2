-- Members: the private profile row, its public projection, match preferences and the
-- compatibility questionnaire. Rules (triggers, policies that need other tables) come in 0005.

-- Shared helpers --------------------------------------------------------------------------------

create or replace function public.set_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Check constraints cannot hold subqueries, so list limits live in this immutable helper.
create or replace function public.is_text_list_ok(items text[], max_items int, max_len int) returns boolean
language sql immutable as $$
  select items is null or (
    coalesce(cardinality(items), 0) <= max_items
    and not exists (select 1 from unnest(items) x where x is null or length(x) = 0 or length(x) > max_len)
  )
$$;

-- Names arrive from sign-up metadata and profile edits: angle brackets are escaped, ends trimmed.
create or replace function public.sanitize_name(raw text) returns text
language sql immutable as $$
  select nullif(btrim(replace(replace(raw, '<', '&lt;'), '>', '&gt;')), '')
$$;

-- Profiles (private: only the owner reads it) -----------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text check (length(name) <= 100),
  birthday date check (birthday >= date '1900-01-01'),
  gender text check (gender in ('woman', 'man', 'non-binary', 'other')),
  looking_for text[] not null default '{}'
    check (looking_for <@ array['woman', 'man', 'non-binary', 'other']::text[]),
  relationship_goals text
    check (relationship_goals in ('long-term', 'short-term', 'marriage', 'friendship', 'casual', 'not-sure')),
  street_address text check (length(street_address) <= 200),
  city text check (length(city) <= 100),
  state text check (length(state) <= 100),
  zip_code text check (length(zip_code) <= 20),
  country text check (length(country) <= 100),
  -- Coarse position only: snapped to a 0.1 degree grid (about 11 km) by the column's scale.
  -- numeric NaN sorts above every number, so the range checks refuse it as well as out-of-range values.
  location_lat numeric(4, 1) check (location_lat between -90 and 90),
  location_lng numeric(4, 1) check (location_lng between -180 and 180),
  bio text check (length(bio) <= 2000),
  interests text[] not null default '{}' check (public.is_text_list_ok(interests, 30, 40)),
  career text check (length(career) <= 100),
  industry text check (length(industry) <= 100),
  education_level text check (education_level in (
    'high-school', 'trade-school', 'some-college', 'associate', 'bachelor', 'master', 'doctorate', 'other')),
  languages text[] not null default '{}' check (public.is_text_list_ok(languages, 10, 40)),
  height numeric(4, 1),
  height_unit text not null default 'cm' check (height_unit in ('cm', 'ft')),
  relationship_status text check (relationship_status in (
    'single', 'divorced', 'separated', 'widowed', 'its-complicated')),
  photos text[] not null default '{}' check (public.is_text_list_ok(photos, 6, 500)),
  email text,
  is_paused boolean not null default false,
  pause_end_date timestamptz,
  match_preferences_completed boolean not null default false,
  show_online_status boolean not null default true,
  show_distance boolean not null default true,
  read_receipts boolean not null default true,
  likes_seen_at timestamptz,
  is_verified boolean not null default false,
  last_seen timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_location_pair check ((location_lat is null) = (location_lng is null)),
  constraint profiles_height_range check (
    height is null
    or (height_unit = 'cm' and height between 100 and 250)
    or (height_unit = 'ft' and height between 3 and 8.5))
);
alter table public.profiles enable row level security;

create index profiles_discovery_idx on public.profiles (gender, birthday) where not is_paused;
create index profiles_location_idx on public.profiles (location_lat, location_lng);

create policy "profiles: owner reads" on public.profiles for select to authenticated
  using (id = auth.uid());
create policy "profiles: owner updates" on public.profiles for update to authenticated
  using (id = auth.uid()) with check (id = auth.uid());

-- Rows are created by the auth.users trigger and removed with the user; members edit only their
-- own columns, never id, email, is_verified or the timestamps the server keeps.
revoke all on public.profiles from anon, authenticated;
grant select on public.profiles to authenticated;
grant update (
  name, birthday, gender, looking_for, relationship_goals, street_address, city, state, zip_code, country,
  location_lat, location_lng, bio, interests, career, industry, education_level, languages, height,
  height_unit, relationship_status, photos, is_paused, pause_end_date, match_preferences_completed,
  show_online_status, show_distance, read_receipts, likes_seen_at, last_seen, updated_at
) on public.profiles to authenticated;

-- Public projection (a table kept by triggers, so it can be synced) --------------------------------

create table public.public_profiles (
  id uuid primary key references public.profiles (id) on delete cascade,
  name text,
  age int,
  gender text,
  photos text[] not null default '{}',
  bio text,
  interests text[] not null default '{}',
  career text,
  education_level text,
  languages text[] not null default '{}',
  height numeric(4, 1),
  height_unit text,
  relationship_goals text,
  looking_for text[] not null default '{}',
  city text,
  country text,
  is_verified boolean not null default false,
  last_seen timestamptz,
  updated_at timestamptz not null default now()
);
alter table public.public_profiles enable row level security;
revoke all on public.public_profiles from anon, authenticated;
grant select on public.public_profiles to authenticated;

-- Match preferences (private) ---------------------------------------------------------------------

create table public.match_preferences (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  min_age int not null default 18 check (min_age between 18 and 120),
  max_age int not null default 120 check (max_age between 18 and 120),
  -- Empty means "anyone".
  genders text[] not null default '{}' check (genders <@ array['woman', 'man', 'non-binary', 'other']::text[]),
  max_distance_band text check (max_distance_band in (
    'under 5 km', '5-10 km', '10-25 km', '25-50 km', '50-100 km', '100+ km')),
  relationship_goals text[] not null default '{}' check (relationship_goals <@ array[
    'long-term', 'short-term', 'marriage', 'friendship', 'casual', 'not-sure']::text[]),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint match_preferences_age_order check (min_age <= max_age)
);
alter table public.match_preferences enable row level security;
create policy "match_preferences: owner reads" on public.match_preferences for select to authenticated
  using (user_id = auth.uid());
create policy "match_preferences: owner inserts" on public.match_preferences for insert to authenticated
  with check (user_id = auth.uid());
create policy "match_preferences: owner updates" on public.match_preferences for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy "match_preferences: owner deletes" on public.match_preferences for delete to authenticated
  using (user_id = auth.uid());
revoke all on public.match_preferences from anon;

-- Compatibility questionnaire ---------------------------------------------------------------------

create table public.compatibility_questions (
  id int primary key,
  category text not null,
  text text not null,
  options text[] not null check (cardinality(options) between 2 and 6)
);
alter table public.compatibility_questions enable row level security;
create policy "compatibility_questions: members read" on public.compatibility_questions for select
  to authenticated using (true);
revoke all on public.compatibility_questions from anon, authenticated;
grant select on public.compatibility_questions to authenticated;

create table public.profile_answers (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  question_id int not null references public.compatibility_questions (id),
  -- Index into the question's options (0-based).
  answer smallint not null check (answer between 0 and 5),
  -- The answers this member accepts from someone else; at least one.
  acceptable_answers smallint[] not null
    check (cardinality(acceptable_answers) between 1 and 6 and acceptable_answers <@ array[0, 1, 2, 3, 4, 5]::smallint[]),
  -- 0 irrelevant, 1 a little, 2 somewhat, 3 very important.
  importance smallint not null default 2 check (importance between 0 and 3),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, question_id)
);
alter table public.profile_answers enable row level security;
create index profile_answers_question_idx on public.profile_answers (question_id);
create policy "profile_answers: owner reads" on public.profile_answers for select to authenticated
  using (user_id = auth.uid());
create policy "profile_answers: owner inserts" on public.profile_answers for insert to authenticated
  with check (user_id = auth.uid());
create policy "profile_answers: owner updates" on public.profile_answers for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy "profile_answers: owner deletes" on public.profile_answers for delete to authenticated
  using (user_id = auth.uid());
revoke all on public.profile_answers from anon;

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();
create trigger match_preferences_set_updated_at before update on public.match_preferences
  for each row execute function public.set_updated_at();
create trigger profile_answers_set_updated_at before update on public.profile_answers
  for each row execute function public.set_updated_at();
