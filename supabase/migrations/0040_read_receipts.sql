-- Read receipts honour the recipient's privacy setting: with profiles.read_receipts off, a message the
-- recipient marks read is stored as delivered, so the sender (who syncs the same row) never learns it
-- was read. The recipient's own "read up to" mark stays on their device (src/features/messages).

create or replace function public.check_message_update() returns trigger
language plpgsql set search_path = '' as $$
declare
  rank_old int := array_position(array['sent', 'delivered', 'read'], old.status);
  rank_new int;
begin
  if new.status = 'read' and not coalesce(
    (select p.read_receipts from public.profiles p where p.id = new.recipient_id), true) then
    new.status := 'delivered';
  end if;
  rank_new := array_position(array['sent', 'delivered', 'read'], new.status);
  -- Status only moves forward; an older update arriving late is ignored rather than refused (0007).
  if rank_new < rank_old then
    new.status := old.status;
  end if;
  new.delivered_at := case when new.status in ('delivered', 'read') then coalesce(old.delivered_at, now()) end;
  new.read_at := case when new.status = 'read' then coalesce(old.read_at, now()) end;
  return new;
end;
$$;
