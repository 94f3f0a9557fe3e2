-- Static game content (members-area §3): This-or-That questions, story themes, Would-You-Rather
-- prompts and couple-quiz questions. Read-only for signed-in members; ids are stable slugs so every
-- install and replica agree, and `position` gives the order (round 1 uses position 1).

create table public.this_or_that_questions (
  id text primary key constraint this_or_that_questions_id_check check (id ~ '^[a-z0-9-]{1,60}$'),
  position integer not null unique,
  text text not null constraint this_or_that_questions_text_check check (char_length(text) between 1 and 200),
  option_a text not null constraint this_or_that_questions_option_a_check check (char_length(option_a) between 1 and 100),
  option_b text not null constraint this_or_that_questions_option_b_check check (char_length(option_b) between 1 and 100)
);

create table public.story_themes (
  id text primary key constraint story_themes_id_check check (id ~ '^[a-z0-9-]{1,60}$'),
  position integer not null unique,
  title text not null constraint story_themes_title_check check (char_length(title) between 1 and 100),
  description text not null constraint story_themes_description_check check (char_length(description) between 1 and 300),
  opening_line text not null constraint story_themes_opening_line_check check (char_length(opening_line) between 1 and 300),
  category text not null
    constraint story_themes_category_check check (category in ('romantic', 'adventure', 'comedy', 'mystery', 'daily', 'fantasy')),
  difficulty text not null
    constraint story_themes_difficulty_check check (difficulty in ('easy', 'medium', 'hard'))
);
create index story_themes_category_idx on public.story_themes (category, difficulty);

create table public.would_you_rather_prompts (
  id text primary key constraint would_you_rather_prompts_id_check check (id ~ '^[a-z0-9-]{1,60}$'),
  position integer not null unique,
  category text not null
    constraint would_you_rather_prompts_category_check
    check (category in ('superpowers', 'lifestyle', 'adventure', 'embarrassing', 'food', 'relationship')),
  option_a text not null constraint would_you_rather_prompts_option_a_check check (char_length(option_a) between 1 and 200),
  option_b text not null constraint would_you_rather_prompts_option_b_check check (char_length(option_b) between 1 and 200)
);
create index would_you_rather_prompts_category_idx on public.would_you_rather_prompts (category);

create table public.couple_quiz_questions (
  id text primary key constraint couple_quiz_questions_id_check check (id ~ '^[a-z0-9-]{1,60}$'),
  position integer not null unique,
  question_type text not null
    constraint couple_quiz_questions_type_check
    check (question_type in ('about-partner', 'relationship', 'future', 'preferences')),
  question text not null constraint couple_quiz_questions_question_check check (char_length(question) between 1 and 200),
  options text[] not null
    constraint couple_quiz_questions_options_check
    check (cardinality(options) = 5 and public.is_text_list_ok(options, 5, 100))
);
create index couple_quiz_questions_type_idx on public.couple_quiz_questions (question_type);

-- Readable by signed-in members; written only by migrations (the service role bypasses RLS).
do $$
declare
  t text;
begin
  foreach t in array array['this_or_that_questions', 'story_themes', 'would_you_rather_prompts', 'couple_quiz_questions']
  loop
    execute format('alter table public.%I enable row level security', t);
    execute format('revoke all on public.%I from anon, authenticated', t);
    execute format('grant select on public.%I to authenticated', t);
    execute format('create policy %I on public.%I for select to authenticated using (true)', t || '_read', t);
  end loop;
end
$$;

insert into public.this_or_that_questions (id, position, text, option_a, option_b) values
  ('coffee-or-tea', 1, 'Your perfect morning starts with...', 'Coffee', 'Tea'),
  ('beach-or-mountains', 2, 'Dream getaway?', 'Beach', 'Mountains'),
  ('night-in-or-night-out', 3, 'Friday night plans?', 'Cosy night in', 'Night out on the town'),
  ('cats-or-dogs', 4, 'Which furry friend wins your heart?', 'Cats', 'Dogs'),
  ('sunrise-or-sunset', 5, 'Which would you rather watch together?', 'Sunrise', 'Sunset');

insert into public.story_themes (id, position, title, description, opening_line, category, difficulty) values
  ('first-date-in-paris', 1, 'First Date in Paris', 'A spontaneous evening in the city of lights.',
   'The little café on the corner had exactly one table left, and it was by the window.', 'romantic', 'easy'),
  ('love-letters-in-the-attic', 2, 'Love Letters in the Attic', 'Old letters tell a story that is not finished yet.',
   'Under a dusty blanket lay a box of letters tied with a faded red ribbon.', 'romantic', 'medium'),
  ('stargazing-on-the-roof', 3, 'Stargazing on the Roof', 'A quiet night, a blanket and a sky full of wishes.',
   'We carried two mugs of cocoa up the fire escape and counted the first star.', 'romantic', 'easy'),
  ('second-chance-at-the-station', 4, 'Second Chance at the Station', 'Two old flames meet again on a delayed train.',
   'The departure board flipped to DELAYED just as a familiar voice said my name.', 'romantic', 'hard'),
  ('lost-in-the-jungle', 5, 'Lost in the Jungle', 'A wrong turn on a rainforest trail becomes an expedition.',
   'The map was clear about the river. The river, apparently, had other plans.', 'adventure', 'medium'),
  ('road-trip-without-a-map', 6, 'Road Trip Without a Map', 'An old car, a full tank and no plan at all.',
   'At the first crossroads we flipped a coin, and it landed on its edge.', 'adventure', 'easy'),
  ('the-hot-air-balloon', 7, 'The Hot Air Balloon', 'A gentle ride drifts much further than planned.',
   'The pilot smiled and said the wind would bring us back. It did not.', 'adventure', 'medium'),
  ('treasure-under-the-pier', 8, 'Treasure Under the Pier', 'A message in a bottle points to low tide.',
   'The note inside the bottle had only three words: under the pier.', 'adventure', 'hard'),
  ('the-cooking-class-disaster', 9, 'The Cooking Class Disaster', 'Two beginners, one soufflé, zero experience.',
   'The instructor said the soufflé would rise. She did not say how high.', 'comedy', 'easy'),
  ('the-wrong-wedding', 10, 'The Wrong Wedding', 'Dressed up, on time, and at completely the wrong party.',
   'Everyone seemed very happy to see us, which was strange, because we knew no one.', 'comedy', 'medium'),
  ('the-talking-parrot', 11, 'The Talking Parrot', 'A pet-sitting job with a bird that knows too much.',
   'The parrot cleared its throat and repeated something it definitely should not have heard.', 'comedy', 'easy'),
  ('karaoke-mix-up', 12, 'Karaoke Mix-Up', 'The song on the screen is not the one you signed up for.',
   'The opening notes played, and my stomach dropped: it was the duet.', 'comedy', 'medium'),
  ('the-missing-painting', 13, 'The Missing Painting', 'A small-town gallery wakes up to an empty frame.',
   'The frame was still on the wall, but the painting had been replaced by a note.', 'mystery', 'medium'),
  ('the-midnight-bookshop', 14, 'The Midnight Bookshop', 'A bookshop that only opens after the clock strikes twelve.',
   'The sign on the door read OPEN, and the clock above it had just struck midnight.', 'mystery', 'hard'),
  ('secret-admirer-notes', 15, 'Secret Admirer Notes', 'Anonymous notes keep appearing in unexpected places.',
   'The third note was tucked inside my umbrella, and this one was signed with a single letter.', 'mystery', 'easy'),
  ('the-locked-lighthouse', 16, 'The Locked Lighthouse', 'A lighthouse lamp shines every night, yet no one lives there.',
   'The keeper left twenty years ago, but tonight the light was on again.', 'mystery', 'hard'),
  ('sunday-farmers-market', 17, 'Sunday Farmers Market', 'A slow morning of fresh bread and small talk.',
   'The baker handed us the last loaf and said it came with a story.', 'daily', 'easy'),
  ('moving-day', 18, 'Moving Day', 'Boxes, a borrowed van and a couch that will not fit.',
   'We measured the doorway twice. The couch was, somehow, still bigger.', 'daily', 'easy'),
  ('the-rainy-afternoon', 19, 'The Rainy Afternoon', 'Plans cancelled by rain turn into something better.',
   'The picnic was ruined, so we spread the blanket on the living-room floor instead.', 'daily', 'medium'),
  ('the-neighbourhood-dog', 20, 'The Neighbourhood Dog', 'A friendly stray decides you two belong together.',
   'The dog sat exactly between our front doors, as if waiting for us to meet.', 'daily', 'medium'),
  ('the-dragon-who-could-not-fly', 21, 'The Dragon Who Could Not Fly', 'A gentle dragon needs help finding its wings.',
   'The dragon was the size of a house and looked very embarrassed.', 'fantasy', 'medium'),
  ('the-enchanted-forest', 22, 'The Enchanted Forest', 'Every path in this forest leads somewhere new.',
   'The trees whispered our names as we stepped off the path.', 'fantasy', 'easy'),
  ('the-time-travel-watch', 23, 'The Time Travel Watch', 'A vintage watch turns back the clock by one day.',
   'I wound the old watch once, and the calendar on the wall jumped back to yesterday.', 'fantasy', 'hard'),
  ('kingdom-under-the-sea', 24, 'Kingdom Under the Sea', 'An invitation to a royal ball, a hundred metres down.',
   'The invitation was written on a seashell and smelled faintly of the ocean.', 'fantasy', 'hard');

insert into public.would_you_rather_prompts (id, position, category, option_a, option_b) values
  ('fly-or-invisible', 1, 'superpowers', 'be able to fly', 'be able to turn invisible'),
  ('read-minds-or-teleport', 2, 'superpowers', 'read minds for a day', 'teleport anywhere once a week'),
  ('talk-to-animals-or-speak-every-language', 3, 'superpowers', 'talk to animals', 'speak every human language'),
  ('city-or-countryside', 4, 'lifestyle', 'live in a buzzing city', 'live in a quiet countryside house'),
  ('early-bird-or-night-owl', 5, 'lifestyle', 'always wake up at sunrise full of energy', 'be wide awake and creative at midnight'),
  ('travel-or-home', 6, 'lifestyle', 'travel somewhere new every month', 'have the perfect home you never want to leave'),
  ('skydive-or-deep-sea', 7, 'adventure', 'go skydiving together', 'go deep-sea diving together'),
  ('backpack-or-cruise', 8, 'adventure', 'backpack across a continent', 'sail around the world on a boat'),
  ('sing-in-public-or-dance', 9, 'embarrassing', 'sing your favourite song in a crowded café', 'dance alone in the middle of a park'),
  ('wrong-name-or-trip', 10, 'embarrassing', 'call your date by the wrong name once', 'trip spectacularly on the way to the table'),
  ('pizza-or-tacos', 11, 'food', 'eat only pizza for a month', 'eat only tacos for a month'),
  ('cook-or-dine-out', 12, 'food', 'cook a fancy dinner together at home', 'try a new restaurant every week'),
  ('sweet-or-savoury', 13, 'food', 'give up dessert forever', 'give up cheese forever'),
  ('love-letter-or-surprise-trip', 14, 'relationship', 'receive a handwritten love letter', 'be whisked away on a surprise weekend trip'),
  ('adventure-or-cosy', 15, 'relationship', 'have a partner who plans adventures', 'have a partner who plans cosy nights in');

insert into public.couple_quiz_questions (id, position, question_type, question, options) values
  ('partner-comfort-food', 1, 'about-partner', 'What is my go-to comfort food?',
   array['Pizza', 'Ice cream', 'Noodles', 'Chocolate', 'A home-cooked stew']),
  ('partner-free-day', 2, 'about-partner', 'How would I spend a completely free day?',
   array['Sleeping in', 'Outdoors on a hike', 'With friends', 'Reading or gaming', 'Trying something new']),
  ('partner-hidden-talent', 3, 'about-partner', 'Which hidden talent would I most like to have?',
   array['Playing an instrument', 'Painting', 'Dancing', 'Cooking like a chef', 'Speaking many languages']),
  ('partner-stress-relief', 4, 'about-partner', 'What helps me most when I am stressed?',
   array['A long walk', 'Music', 'Talking it through', 'Some quiet time alone', 'Exercise']),
  ('relationship-love-language', 5, 'relationship', 'Which love language matters most to me?',
   array['Words of affirmation', 'Quality time', 'Thoughtful gifts', 'Acts of service', 'Physical touch']),
  ('relationship-ideal-date', 6, 'relationship', 'What is my idea of a perfect date?',
   array['Candle-lit dinner', 'Picnic in the park', 'Concert or show', 'Cooking together', 'An outdoor adventure']),
  ('relationship-disagreement', 7, 'relationship', 'After a disagreement, what do I need most?',
   array['Talk it out right away', 'A little space first', 'A hug', 'A sincere apology', 'A fresh start tomorrow']),
  ('relationship-celebrate', 8, 'relationship', 'How would I like to celebrate our anniversary?',
   array['A trip away', 'A fancy dinner', 'A quiet night in', 'A party with friends', 'Recreating our first date']),
  ('future-dream-home', 9, 'future', 'Where would my dream home be?',
   array['By the sea', 'In the mountains', 'In a big city', 'In a small village', 'Somewhere abroad']),
  ('future-bucket-list', 10, 'future', 'Which bucket-list item tops my list?',
   array['See the northern lights', 'Learn to surf', 'Run a marathon', 'Live abroad for a year', 'Write a book']),
  ('future-ten-years', 11, 'future', 'Where do I see myself in ten years?',
   array['Running my own business', 'Travelling the world', 'Settled with a family', 'Leading a team', 'Living a simple, calm life']),
  ('future-pet', 12, 'future', 'Which pet would I love to have one day?',
   array['A dog', 'A cat', 'A rabbit', 'Fish', 'No pets for me']),
  ('preferences-season', 13, 'preferences', 'What is my favourite season?',
   array['Spring', 'Summer', 'Autumn', 'Winter', 'I love them all']),
  ('preferences-movie-genre', 14, 'preferences', 'Which film genre do I pick on movie night?',
   array['Romantic comedy', 'Action', 'Horror', 'Documentary', 'Animated']),
  ('preferences-holiday', 15, 'preferences', 'What kind of holiday do I prefer?',
   array['Beach and relaxing', 'City sightseeing', 'Hiking and nature', 'Food and wine tour', 'A festival']);
