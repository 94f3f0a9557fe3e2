-- Storage buckets and their policies on storage.objects, written as on Supabase.
-- profile-photos: keys "<member id>/<file>"; the member writes only under their own folder; any signed-in
--   member may read (photos are part of the public profile), anonymous visitors never.
-- chat-media: keys "<conversation id>/<sender id>/<file>"; only the two participants of the conversation
--   read, and a participant writes only under their own sender folder.
-- Limits are also enforced by the server (re-encoding, size, pixels, quota); the bucket columns say so too.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('profile-photos', 'profile-photos', false, 8388608, array['image/jpeg', 'image/png', 'image/webp']),
  ('chat-media', 'chat-media', false, 8388608, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do nothing;

-- True when the caller takes part in the conversation a chat-media key starts with. Security definer so
-- the check does not depend on how conversations' own policies evolve; the id comparison is textual so
-- a malformed key is simply "no".
create or replace function storage.is_chat_media_participant(object_name text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.id::text = (storage.foldername(object_name))[1]
      and auth.uid() in (c.participant1_id, c.participant2_id)
  )
$$;
revoke all on function storage.is_chat_media_participant(text) from public;
grant execute on function storage.is_chat_media_participant(text) to authenticated, service_role;

create policy "profile-photos: members read" on storage.objects for select to authenticated
  using (bucket_id = 'profile-photos');
create policy "profile-photos: owner uploads" on storage.objects for insert to authenticated
  with check (bucket_id = 'profile-photos' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "profile-photos: owner replaces" on storage.objects for update to authenticated
  using (bucket_id = 'profile-photos' and (storage.foldername(name))[1] = auth.uid()::text)
  with check (bucket_id = 'profile-photos' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "profile-photos: owner deletes" on storage.objects for delete to authenticated
  using (bucket_id = 'profile-photos' and (storage.foldername(name))[1] = auth.uid()::text);

create policy "chat-media: participants read" on storage.objects for select to authenticated
  using (bucket_id = 'chat-media' and storage.is_chat_media_participant(name));
create policy "chat-media: participant uploads" on storage.objects for insert to authenticated
  with check (
    bucket_id = 'chat-media'
    and (storage.foldername(name))[2] = auth.uid()::text
    and storage.is_chat_media_participant(name)
  );
create policy "chat-media: sender replaces" on storage.objects for update to authenticated
  using (bucket_id = 'chat-media' and (storage.foldername(name))[2] = auth.uid()::text)
  with check (
    bucket_id = 'chat-media'
    and (storage.foldername(name))[2] = auth.uid()::text
    and storage.is_chat_media_participant(name)
  );
create policy "chat-media: sender deletes" on storage.objects for delete to authenticated
  using (bucket_id = 'chat-media' and (storage.foldername(name))[2] = auth.uid()::text);
