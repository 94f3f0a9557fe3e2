-- Blocks and reports reach storage too: two members hidden from each other (public.is_hidden_pair) no
-- longer see each other's profile photos or their conversation's media, and chat media is written only
-- where a message could be (public.can_message: the match still exists, nobody blocked or reported).

-- True when the member whose folder holds a profile photo and the caller must not see each other.
-- The folder is checked to be a UUID first, so a malformed key is simply "not hidden", never an error.
create or replace function storage.is_profile_photo_hidden(object_name text)
returns boolean
language plpgsql stable security definer set search_path = ''
as $$
declare
  folder text := (storage.foldername(object_name))[1];
begin
  if auth.uid() is null or folder is null
    or folder !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  return folder::uuid <> auth.uid() and public.is_hidden_pair(folder::uuid, auth.uid());
end;
$$;
revoke all on function storage.is_profile_photo_hidden(text) from public;
grant execute on function storage.is_profile_photo_hidden(text) to authenticated, service_role;

-- Participants of a conversation that is not hidden (same rule as the conversations read policy).
create or replace function storage.is_chat_media_participant(object_name text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.id::text = (storage.foldername(object_name))[1]
      and auth.uid() in (c.participant1_id, c.participant2_id)
      and not public.is_hidden_pair(c.participant1_id, c.participant2_id)
  )
$$;

-- Whether the caller may add media to the conversation now: as a message could be sent.
create or replace function storage.can_send_chat_media(object_name text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.id::text = (storage.foldername(object_name))[1]
      and auth.uid() in (c.participant1_id, c.participant2_id)
      and public.can_message(
        c.id,
        auth.uid(),
        case when c.participant1_id = auth.uid() then c.participant2_id else c.participant1_id end
      )
  )
$$;
revoke all on function storage.can_send_chat_media(text) from public;
grant execute on function storage.can_send_chat_media(text) to authenticated, service_role;

drop policy "profile-photos: members read" on storage.objects;
create policy "profile-photos: members read" on storage.objects for select to authenticated
  using (bucket_id = 'profile-photos' and not storage.is_profile_photo_hidden(name));

drop policy "chat-media: participant uploads" on storage.objects;
create policy "chat-media: participant uploads" on storage.objects for insert to authenticated
  with check (
    bucket_id = 'chat-media'
    and (storage.foldername(name))[2] = auth.uid()::text
    and storage.can_send_chat_media(name)
  );
drop policy "chat-media: sender replaces" on storage.objects;
create policy "chat-media: sender replaces" on storage.objects for update to authenticated
  using (bucket_id = 'chat-media' and (storage.foldername(name))[2] = auth.uid()::text)
  with check (
    bucket_id = 'chat-media'
    and (storage.foldername(name))[2] = auth.uid()::text
    and storage.can_send_chat_media(name)
  );
