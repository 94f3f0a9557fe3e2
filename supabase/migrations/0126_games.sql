-- More game content (issue 19): five This-or-That questions and fifteen prompts end a game too soon and
-- repeat across games. The spec's rows keep their ids and positions (round 1 of This-or-That is still
-- position 1); these follow, in the spec's categories. Ids are stable slugs, so every replica agrees.

insert into public.this_or_that_questions (id, position, text, option_a, option_b) values
  ('books-or-films', 6, 'A rainy Sunday calls for...', 'A good book', 'A film marathon'),
  ('sweet-or-salty', 7, 'Snack attack: you reach for...', 'Something sweet', 'Something salty'),
  ('city-break-or-road-trip', 8, 'Long weekend away?', 'City break', 'Road trip'),
  ('plan-or-spontaneous', 9, 'Your travel style?', 'Every day planned', 'See where the day takes us'),
  ('texts-or-calls', 10, 'Keeping in touch?', 'Texts all day', 'One long call in the evening'),
  ('breakfast-or-dinner', 11, 'The best date is over...', 'Breakfast', 'Dinner'),
  ('summer-or-winter', 12, 'Which season feels like you?', 'Summer', 'Winter'),
  ('museum-or-concert', 13, 'A cultural evening?', 'A quiet museum', 'A loud concert'),
  ('cook-or-takeaway', 14, 'Dinner tonight?', 'Cook together', 'Order takeaway'),
  ('pancakes-or-waffles', 15, 'Brunch decision time:', 'Pancakes', 'Waffles'),
  ('hike-or-spa', 16, 'A day to recharge?', 'A long hike', 'A spa day'),
  ('board-games-or-video-games', 17, 'Game night?', 'Board games', 'Video games'),
  ('early-or-late', 18, 'When are you at your best?', 'Early morning', 'Late at night'),
  ('ocean-or-lake', 19, 'Where would you rather swim?', 'The ocean', 'A still lake'),
  ('pop-or-rock', 20, 'Road-trip playlist?', 'Pop hits', 'Rock classics'),
  ('comedy-or-thriller', 21, 'Movie night pick?', 'Comedy', 'Thriller'),
  ('picnic-or-restaurant', 22, 'First date setting?', 'A picnic in the park', 'A candle-lit restaurant'),
  ('camping-or-hotel', 23, 'Night under the stars?', 'Camping in a tent', 'A hotel with a view'),
  ('dance-or-watch', 24, 'At a wedding you...', 'Own the dance floor', 'Watch from the table'),
  ('handwritten-or-voice-note', 25, 'A sweet message arrives as...', 'A handwritten note', 'A voice note'),
  ('chocolate-or-vanilla', 26, 'Ice cream scoop?', 'Chocolate', 'Vanilla'),
  ('farmers-market-or-supermarket', 27, 'Saturday shopping?', 'Farmers market', 'Quick supermarket run'),
  ('big-party-or-small-dinner', 28, 'Your birthday?', 'A big party', 'A small dinner with close friends'),
  ('bike-or-walk', 29, 'Exploring a new town?', 'By bike', 'On foot'),
  ('stars-or-city-lights', 30, 'The view you want tonight?', 'A sky full of stars', 'City lights from a rooftop')
on conflict (id) do nothing;

insert into public.would_you_rather_prompts (id, position, category, option_a, option_b) values
  ('freeze-time-or-rewind', 16, 'superpowers', 'pause time for an hour a day', 'rewind the last ten minutes once a day'),
  ('super-strength-or-super-speed', 17, 'superpowers', 'have super strength', 'have super speed'),
  ('breathe-underwater-or-never-sleep', 18, 'superpowers', 'breathe underwater', 'never need sleep'),
  ('no-phone-or-no-music', 19, 'lifestyle', 'give up your phone for a month', 'give up music for a month'),
  ('tiny-flat-centre-or-big-house-far', 20, 'lifestyle', 'live in a tiny flat in the centre', 'live in a big house far from everything'),
  ('work-four-days-or-long-holidays', 21, 'lifestyle', 'work four days a week', 'have two months of holiday a year'),
  ('northern-lights-or-safari', 22, 'adventure', 'see the northern lights', 'go on a safari'),
  ('volcano-or-glacier', 23, 'adventure', 'hike up a volcano', 'walk across a glacier'),
  ('karaoke-or-stand-up', 24, 'embarrassing', 'sing karaoke in front of your exes', 'do five minutes of stand-up comedy'),
  ('typo-text-or-reply-all', 25, 'embarrassing', 'send a love text to your boss by mistake', 'reply-all to the whole office by mistake'),
  ('spicy-or-bland', 26, 'food', 'only eat very spicy food', 'only eat very plain food'),
  ('breakfast-all-day-or-dessert-first', 27, 'food', 'eat breakfast for every meal', 'always eat dessert first'),
  ('know-the-future-or-change-the-past', 28, 'relationship', 'know how our story ends', 'be able to change one moment of it'),
  ('always-say-love-or-show-it', 29, 'relationship', 'hear "I love you" every day', 'be shown it through small gestures'),
  ('same-hobbies-or-different', 30, 'relationship', 'share all your hobbies with your partner', 'each have your own world to talk about')
on conflict (id) do nothing;

insert into public.couple_quiz_questions (id, position, question_type, question, options) values
  ('partner-morning', 16, 'about-partner', 'What do I do first thing in the morning?',
   array['Check my phone', 'Make coffee or tea', 'Exercise', 'Snooze the alarm', 'Shower and sing']),
  ('partner-superpower', 17, 'about-partner', 'Which superpower would I pick?',
   array['Flying', 'Invisibility', 'Reading minds', 'Teleporting', 'Talking to animals']),
  ('partner-guilty-pleasure', 18, 'about-partner', 'What is my guilty pleasure?',
   array['Reality TV', 'Fast food', 'Online shopping', 'Cheesy pop songs', 'Sleeping in']),
  ('relationship-gift', 19, 'relationship', 'Which gift would make me happiest?',
   array['Something handmade', 'An experience together', 'A book', 'Flowers', 'A surprise trip']),
  ('relationship-date-night', 20, 'relationship', 'What is my ideal date night?',
   array['Dinner out', 'Cooking at home', 'A concert', 'A long walk', 'A games night']),
  ('future-travel', 21, 'future', 'Where would I travel next?',
   array['Japan', 'Italy', 'Iceland', 'Mexico', 'Somewhere I have never heard of']),
  ('future-retire', 22, 'future', 'How would I spend my retirement?',
   array['Travelling', 'Gardening', 'Volunteering', 'Starting a business', 'With grandchildren']),
  ('preferences-music', 23, 'preferences', 'What music do I play most?',
   array['Pop', 'Rock', 'Hip-hop', 'Classical', 'Jazz']),
  ('preferences-drink', 24, 'preferences', 'What do I order at a café?',
   array['Espresso', 'Cappuccino', 'Tea', 'Hot chocolate', 'Something iced']),
  ('preferences-weekend', 25, 'preferences', 'My perfect weekend is...',
   array['Out with friends', 'At home, cosy', 'In nature', 'Exploring a new city', 'Catching up on sleep'])
on conflict (id) do nothing;

-- Game notifications open the game itself (they led to the match list, where nothing could be done).
create or replace function public.game_sessions_notify()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  actor_id uuid;
  actor_name text;
  game_name text;
begin
  select g.name into game_name from public.game_types g where g.id = new.game_type;
  if tg_op = 'INSERT' then
    actor_id := new.player1_id;
  elsif old.status = 'pending' and new.status in ('active', 'declined') then
    actor_id := new.player2_id;
  else
    return null;
  end if;
  select coalesce(nullif(btrim(p.name), ''), 'Your match') into actor_name
    from public.profiles p where p.id = actor_id;
  actor_name := coalesce(actor_name, 'Your match');
  if tg_op = 'INSERT' then
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.player2_id, 'game_invitation', 'New game invitation',
            actor_name || ' invited you to play ' || game_name, '/games/' || new.id,
            jsonb_build_object('sessionId', new.id, 'gameType', new.game_type, 'fromUserId', actor_id));
  else
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.player1_id,
            case when new.status = 'active' then 'game_invitation_accepted' else 'game_invitation_declined' end,
            case when new.status = 'active' then 'Game accepted' else 'Game declined' end,
            actor_name || case when new.status = 'active' then ' accepted your ' else ' declined your ' end
              || game_name || ' invitation',
            '/games/' || new.id,
            jsonb_build_object('sessionId', new.id, 'gameType', new.game_type, 'fromUserId', actor_id));
  end if;
  return null;
end;
$$;
