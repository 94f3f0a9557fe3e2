import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { makeClient, makeMember, REST_FIXTURE_SQL, restFetch, type Member } from './rest-support.ts';

describe.each(getDatabaseKinds())('REST /rest/v1 through supabase-js on %s', (kind) => {
  let t: TestServer;
  let anon: SupabaseClient;
  let service: SupabaseClient;
  let alice: Member;
  let bob: Member;

  beforeAll(async () => {
    t = await startTestServer(kind);
    await t.db.exec(REST_FIXTURE_SQL);
    anon = makeClient(t, t.anonKey);
    service = makeClient(t, t.serviceRoleKey);
    alice = await makeMember(t, 'alice');
    bob = await makeMember(t, 'bob');
    const { error } = await alice.client.from('rest_notes').insert([
      {
        owner_id: alice.id,
        title: 'first',
        body: 'hello world',
        score: 1,
        tags: ['a', 'b'],
        meta: { lang: 'en', n: 1 },
      },
      { owner_id: alice.id, title: 'second', body: null, score: 50, tags: ['b'] },
      { owner_id: alice.id, title: 'public one', body: 'Shared', score: 100, tags: [], meta: { lang: 'fr' } },
    ]);
    expect(error).toBeNull();
    const r2 = await bob.client
      .from('rest_notes')
      .insert({ owner_id: bob.id, title: 'bob private', score: 5 });
    expect(r2.error).toBeNull();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('reads under RLS', () => {
    it('a member reads their own notes and public ones, never another member private notes', async () => {
      const { data, error, status } = await alice.client.from('rest_notes').select('title').order('title');
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toEqual([{ title: 'first' }, { title: 'public one' }, { title: 'second' }]);
      const bobs = await bob.client.from('rest_notes').select('title').order('title');
      expect(bobs.data).toEqual([{ title: 'bob private' }, { title: 'public one' }]);
    });

    it('anonymous sees only public rows; the service role sees everything', async () => {
      const a = await anon.from('rest_notes').select('title');
      expect(a.data).toEqual([{ title: 'public one' }]);
      const s = await service.from('rest_notes').select('title', { count: 'exact' });
      expect(s.count).toBe(4);
    });

    it('renames, casts and JSON paths in select', async () => {
      const { data, error } = await alice.client
        .from('rest_notes')
        .select('name:title, score::text, lang:meta->>lang, meta->n')
        .eq('title', 'first')
        .single();
      expect(error).toBeNull();
      expect(data).toEqual({ name: 'first', score: '1', lang: 'en', n: 1 });
    });

    it('filters: eq, neq, gt, gte, lt, lte, in, is, like, ilike, not, cs, cd', async () => {
      const titles = async (q: PromiseLike<{ data: { title: string }[] | null; error: unknown }>) => {
        const { data, error } = await q;
        expect(error).toBeNull();
        return (data ?? []).map((r) => r.title).sort();
      };
      const notes = () => alice.client.from('rest_notes').select('title');
      expect(await titles(notes().eq('score', 50))).toEqual(['second']);
      expect(await titles(notes().neq('score', 50))).toEqual(['first', 'public one']);
      expect(await titles(notes().gt('score', 1))).toEqual(['public one', 'second']);
      expect(await titles(notes().gte('score', 50))).toEqual(['public one', 'second']);
      expect(await titles(notes().lt('score', 50))).toEqual(['first']);
      expect(await titles(notes().lte('score', 50))).toEqual(['first', 'second']);
      expect(await titles(notes().in('title', ['first', 'second', 'a,b "c"']))).toEqual(['first', 'second']);
      expect(await titles(notes().is('body', null))).toEqual(['second']);
      expect(await titles(notes().not('body', 'is', null))).toEqual(['first', 'public one']);
      expect(await titles(notes().like('body', '%world'))).toEqual(['first']);
      expect(await titles(notes().like('body', '*world'))).toEqual(['first']);
      expect(await titles(notes().ilike('body', 'shared'))).toEqual(['public one']);
      expect(await titles(notes().not('score', 'in', '(1,50)'))).toEqual(['public one']);
      expect(await titles(notes().contains('tags', ['b']))).toEqual(['first', 'second']);
      expect(await titles(notes().containedBy('tags', ['b', 'c']))).toEqual(['public one', 'second']);
      expect(await titles(notes().eq('meta->>lang', 'fr'))).toEqual(['public one']);
      expect(await titles(notes().contains('meta', { lang: 'en' }))).toEqual(['first']);
      expect(await titles(notes().ilikeAnyOf('title', ['FIR%', 'sec%']))).toEqual(['first', 'second']);
      expect(await titles(notes().textSearch('body', 'hello & world'))).toEqual(['first']);
      expect(
        await titles(notes().textSearch('body', 'shared', { config: 'english', type: 'plain' })),
      ).toEqual(['public one']);
      expect(await titles(notes().match({ score: 50, title: 'second' }))).toEqual(['second']);
      expect(await titles(notes().filter('title', 'imatch', '^FIR'))).toEqual(['first']);
      expect(await titles(notes().filter('body', 'isdistinct', 'hello world'))).toEqual([
        'public one',
        'second',
      ]);
      expect(await titles(notes().overlaps('tags', ['a', 'z']))).toEqual(['first']);
    });

    it('or and and trees, nested, with quoted values', async () => {
      const { data, error } = await alice.client
        .from('rest_notes')
        .select('title')
        .or('score.eq.1,and(score.gte.50,title.eq."public one"),title.in.("x,y",second)')
        .order('title');
      expect(error).toBeNull();
      expect(data?.map((r) => r.title)).toEqual(['first', 'public one', 'second']);
      const neg = await alice.client
        .from('rest_notes')
        .select('title')
        .not('title', 'eq', 'first')
        .or('score.lt.60,body.is.null');
      expect(neg.data?.map((r) => r.title)).toEqual(['second']);
    });

    it('order with direction and nulls placement, on several columns', async () => {
      const { data } = await alice.client
        .from('rest_notes')
        .select('title, body')
        .order('body', { ascending: false, nullsFirst: true })
        .order('title');
      expect(data?.map((r) => r.title)).toEqual(['second', 'first', 'public one']);
      const last = await alice.client
        .from('rest_notes')
        .select('title')
        .order('body', { ascending: true, nullsFirst: false });
      expect(last.data?.map((r) => r.title)).toEqual(['public one', 'first', 'second']);
    });

    it('limit, range and count with Content-Range', async () => {
      const r = await alice.client
        .from('rest_notes')
        .select('title', { count: 'exact' })
        .order('title')
        .range(1, 2);
      expect(r.error).toBeNull();
      expect(r.count).toBe(3);
      expect(r.data?.map((x) => x.title)).toEqual(['public one', 'second']);
      expect(r.status).toBe(206);
      const l = await alice.client.from('rest_notes').select('title').order('title').limit(1);
      expect(l.data).toEqual([{ title: 'first' }]);
      const head = await alice.client.from('rest_notes').select('*', { count: 'exact', head: true });
      expect(head.count).toBe(3);
      expect(head.data).toBeNull();
      const res = await restFetch(t, 'rest_notes?select=title&order=title', {
        token: alice.token,
        headers: { Range: '0-1', 'Range-Unit': 'items', Prefer: 'count=exact' },
      });
      expect(res.headers.get('content-range')).toBe('0-1/3');
      expect(await res.json()).toEqual([{ title: 'first' }, { title: 'public one' }]);
      const beyond = await alice.client.from('rest_notes').select('title', { count: 'exact' }).range(10, 12);
      expect(beyond.status).toBe(416);
      expect(beyond.error?.code).toBe('PGRST103');
    });

    it('answers at most 1000 rows, as Supabase max rows, and says so in Content-Range', async () => {
      await t.db.exec(
        `insert into public.rest_tags (name, uses) select 'bulk-' || g, g from generate_series(1, 1005) g`,
      );
      const r = await anon.from('rest_tags').select('name', { count: 'exact' }).like('name', 'bulk-*');
      expect(r.data).toHaveLength(1000);
      expect(r.count).toBe(1005);
      expect(r.status).toBe(206);
      const rest = await anon.from('rest_tags').select('name').like('name', 'bulk-*').range(1000, 2000);
      expect(rest.data).toHaveLength(5);
      await t.db.exec(`delete from public.rest_tags where name like 'bulk-%'`);
    });

    it('single and maybeSingle: one row as an object, otherwise 406 PGRST116', async () => {
      const one = await alice.client.from('rest_notes').select('title').eq('score', 50).single();
      expect(one.data).toEqual({ title: 'second' });
      const none = await alice.client.from('rest_notes').select('title').eq('score', 999).single();
      expect(none.status).toBe(406);
      expect(none.error?.code).toBe('PGRST116');
      const many = await alice.client.from('rest_notes').select('title').single();
      expect(many.status).toBe(406);
      const maybe = await alice.client.from('rest_notes').select('title').eq('score', 999).maybeSingle();
      expect(maybe.error).toBeNull();
      expect(maybe.data).toBeNull();
    });

    it('reads a view with the caller rights (security_invoker)', async () => {
      const { data } = await bob.client.from('rest_note_titles').select('title').order('title');
      expect(data).toEqual([{ title: 'bob private' }, { title: 'public one' }]);
    });

    it('nulls=stripped drops null fields', async () => {
      const { data } = await alice.client
        .from('rest_notes')
        .select('title, body')
        .eq('title', 'second')
        .stripNulls();
      expect(data).toEqual([{ title: 'second' }]);
    });
  });

  describe('embedded resources through foreign keys', () => {
    it('many-to-one embeds an object, by foreign-key column or constraint name', async () => {
      const { data, error } = await anon
        .from('rest_books')
        .select('title, author:author_id(name), editor:rest_authors!rest_books_editor_id_fkey(name)')
        .order('id');
      expect(error).toBeNull();
      expect(data).toEqual([
        { title: 'Alpha', author: { name: 'Ana' }, editor: { name: 'Ben' } },
        { title: 'Beta', author: { name: 'Ana' }, editor: null },
        { title: 'Gamma', author: { name: 'Ben' }, editor: null },
      ]);
    });

    it('one-to-many embeds an array that RLS filters, with its own filters, order and limit', async () => {
      const { data, error } = await anon
        .from('rest_authors')
        .select('name, books:rest_books!author_id(title)')
        .order('name')
        .order('title', { referencedTable: 'books', ascending: false })
        .neq('books.title', 'Beta');
      expect(error).toBeNull();
      expect(data).toEqual([
        { name: 'Ana', books: [{ title: 'Alpha' }] },
        { name: 'Ben', books: [{ title: 'Gamma' }] },
      ]);
      const limited = await anon
        .from('rest_authors')
        .select('name, rest_books!author_id(title)')
        .eq('name', 'Ana')
        .limit(1, { referencedTable: 'rest_books' })
        .single();
      expect(limited.data).toEqual({ name: 'Ana', rest_books: [{ title: 'Alpha' }] });
    });

    it('!inner keeps only parents with a matching embedded row', async () => {
      const { data, error } = await anon
        .from('rest_authors')
        .select('name, rest_books!author_id!inner(title)')
        .eq('rest_books.title', 'Gamma');
      expect(error).toBeNull();
      expect(data).toEqual([{ name: 'Ben', rest_books: [{ title: 'Gamma' }] }]);
    });

    it('ambiguous, unknown and unselected relationships answer 300 / 400', async () => {
      const ambiguous = await anon.from('rest_books').select('title, rest_authors(name)');
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.error?.code).toBe('PGRST201');
      const unknown = await anon.from('rest_books').select('title, rest_tags(name)');
      expect(unknown.status).toBe(400);
      expect(unknown.error?.code).toBe('PGRST200');
      const unselected = await anon.from('rest_books').select('title').eq('rest_authors.name', 'Ana');
      expect(unselected.status).toBe(400);
      expect(unselected.error?.code).toBe('PGRST108');
    });

    it('insert returns the new row with its embedded parent', async () => {
      const { data, error } = await service
        .from('rest_books')
        .insert({ id: 10, author_id: '00000000-0000-4000-8000-000000000002', title: 'Delta' })
        .select('title, author:author_id(name)')
        .single();
      expect(error).toBeNull();
      expect(data).toEqual({ title: 'Delta', author: { name: 'Ben' } });
    });
  });

  describe('writes under RLS', () => {
    it('insert returns the row shaped by select, with defaults filled', async () => {
      const { data, error, status } = await alice.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 'made' })
        .select('id, title, tags, score')
        .single();
      expect(error).toBeNull();
      expect(status).toBe(201);
      expect(data).toMatchObject({ title: 'made', tags: [], score: null });
      expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('insert of a row in another member name is refused with 42501 and changes nothing', async () => {
      const { error, status } = await bob.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 'forged' });
      expect(status).toBe(403);
      expect(error?.code).toBe('42501');
      const anonTry = await anon.from('rest_notes').insert({ owner_id: alice.id, title: 'forged' });
      expect(anonTry.status).toBe(401);
      const check = await service.from('rest_notes').select('id').eq('title', 'forged');
      expect(check.data).toEqual([]);
    });

    it('insert with missing=default gives absent keys their defaults', async () => {
      const { data, error } = await alice.client
        .from('rest_notes')
        .insert(
          [
            { owner_id: alice.id, title: 'bulk 1', tags: ['x'] },
            { owner_id: alice.id, title: 'bulk 2' },
          ],
          { defaultToNull: false },
        )
        .select('title, tags')
        .order('title');
      expect(error).toBeNull();
      expect(data).toEqual([
        { title: 'bulk 1', tags: ['x'] },
        { title: 'bulk 2', tags: [] },
      ]);
    });

    it('constraint violations keep their SQLSTATE and PostgREST status', async () => {
      const dup = await service.from('rest_tags').insert({ name: 'dup' });
      expect(dup.error).toBeNull();
      const again = await service.from('rest_tags').insert({ name: 'dup' });
      expect(again.status).toBe(409);
      expect(again.error?.code).toBe('23505');
      const notNull = await alice.client.from('rest_notes').insert({ owner_id: alice.id, title: null });
      expect(notNull.status).toBe(400);
      expect(notNull.error?.code).toBe('23502');
      const check = await alice.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 'x'.repeat(201) });
      expect(check.status).toBe(400);
      expect(check.error?.code).toBe('23514');
      const badType = await alice.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 't', score: 'lots' });
      expect(badType.status).toBe(400);
      expect(badType.error?.code).toBe('22P02');
    });

    it('upsert merges duplicates on the primary key or on_conflict, or ignores them', async () => {
      const first = await alice.client.from('rest_tags').upsert({ name: 'love', uses: 1 }).select();
      expect(first.data).toEqual([{ name: 'love', uses: 1, label: null }]);
      const merged = await alice.client
        .from('rest_tags')
        .upsert({ name: 'love', uses: 2 }, { onConflict: 'name' })
        .select();
      expect(merged.data).toEqual([{ name: 'love', uses: 2, label: null }]);
      const ignored = await alice.client
        .from('rest_tags')
        .upsert({ name: 'love', uses: 3 }, { ignoreDuplicates: true })
        .select();
      expect(ignored.error).toBeNull();
      expect(ignored.data).toEqual([]);
      const now = await anon.from('rest_tags').select('uses').eq('name', 'love').single();
      expect(now.data).toEqual({ uses: 2 });
    });

    it('update changes only the caller rows matching the filters', async () => {
      const { data, error } = await alice.client
        .from('rest_notes')
        .update({ body: 'edited' })
        .eq('title', 'second')
        .select('title, body');
      expect(error).toBeNull();
      expect(data).toEqual([{ title: 'second', body: 'edited' }]);
      // Bob cannot change Alice's public note: RLS hides it from his update.
      const bobs = await bob.client
        .from('rest_notes')
        .update({ body: 'hacked' })
        .eq('title', 'public one')
        .select();
      expect(bobs.data).toEqual([]);
      const minimal = await alice.client.from('rest_notes').update({ score: 2 }).eq('title', 'first');
      expect(minimal.status).toBe(204);
      const still = await service.from('rest_notes').select('body, score').eq('title', 'public one').single();
      expect(still.data).toEqual({ body: 'Shared', score: 100 });
    });

    it('update and delete without a filter are refused', async () => {
      const u = await alice.client.from('rest_notes').update({ body: 'all' }).neq('title', 'x').select('id');
      expect(u.error).toBeNull();
      const res = await restFetch(t, 'rest_notes', {
        method: 'PATCH',
        token: alice.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'everything' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('21000');
      const d = await restFetch(t, 'rest_notes', { method: 'DELETE', token: alice.token });
      expect(d.status).toBe(400);
    });

    it('single() on a write that matches several rows rolls it back', async () => {
      const r = await alice.client
        .from('rest_notes')
        .update({ body: 'many' })
        .gte('score', 0)
        .select()
        .single();
      expect(r.status).toBe(406);
      const none = await service.from('rest_notes').select('id').eq('body', 'many');
      expect(none.data).toEqual([]);
    });

    it('delete removes only the caller rows and returns them when asked', async () => {
      const mine = await alice.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 'to delete' })
        .select('id')
        .single();
      const bobTry = await bob.client.from('rest_notes').delete().eq('id', mine.data!.id).select();
      expect(bobTry.data).toEqual([]);
      const { data, error, count } = await alice.client
        .from('rest_notes')
        .delete({ count: 'exact' })
        .eq('id', mine.data!.id)
        .select('title');
      expect(error).toBeNull();
      expect(data).toEqual([{ title: 'to delete' }]);
      expect(count).toBe(1);
    });
  });

  describe('rpc', () => {
    it('a scalar function answers the bare value, with defaults and GET arguments', async () => {
      expect((await anon.rpc('rest_add', { a: 1, b: 2 })).data).toBe(3);
      expect((await anon.rpc('rest_add', { a: 5 })).data).toBe(15);
      expect((await anon.rpc('rest_add', { a: 7 }, { get: true })).data).toBe(17);
    });

    it('a call without select, filters or order is prepared once per connection, and answers for its own arguments each time', async () => {
      const own = await anon.rpc('rest_prepared_rpcs');
      expect(own.error).toBeNull();
      expect((own.data as string[]).length).toBeGreaterThan(0);
      // Past the fifth run PostgreSQL may answer a prepared statement from a generic plan: still each call's values.
      for (let i = 0; i < 12; i++) {
        expect((await anon.rpc('rest_add', { a: i, b: 2 * i })).data).toBe(3 * i);
        expect((await anon.rpc('rest_add', { a: i })).data).toBe(i + 10);
        const sq = await anon.rpc('rest_squares', { x: (i % 4) + 1 });
        expect(sq.data).toHaveLength((i % 4) + 1);
        const filtered = await anon.rpc('rest_squares', { x: 4 }).gt('sq', i);
        expect((filtered.data as { sq: number }[]).every((r) => r.sq > i)).toBe(true);
      }
    });

    it("a function replaced by one of another result type is answered at once after NOTIFY pgrst, 'reload schema'", async () => {
      await t.db
        .exec(`create function public.rest_replaced() returns setof int language sql stable as 'select 7';
        grant execute on function public.rest_replaced() to anon;`);
      // Prepared on the connections these calls take (decision 0116).
      for (let i = 0; i < 6; i++) {
        const calls = await Promise.all([1, 2, 3].map(() => anon.rpc('rest_replaced')));
        for (const c of calls) expect(c.data).toEqual([7]);
      }
      await t.db.exec(`drop function public.rest_replaced();
        create function public.rest_replaced() returns table (word text, n int) language sql stable
          as $$ select 'seven', 7 $$;
        grant execute on function public.rest_replaced() to anon;`);
      // Before the cache hears of it, a call runs the statement prepared for the old function: the statement's
      // own result is always the same (row count and JSON text), so it answers, in the old function's shape.
      const stale = await anon.rpc('rest_replaced');
      expect(stale.error).toBeNull();
      expect(stale.status).toBe(200);
      await t.db.exec(`notify pgrst, 'reload schema'`);
      // The notification arrives in milliseconds; the cache would otherwise refresh only after its 10 s.
      const deadline = Date.now() + 5_000;
      let fresh = await anon.rpc('rest_replaced');
      while (
        JSON.stringify(fresh.data) !== JSON.stringify([{ word: 'seven', n: 7 }]) &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 50));
        fresh = await anon.rpc('rest_replaced');
      }
      expect(fresh.error).toBeNull();
      expect(fresh.data).toEqual([{ word: 'seven', n: 7 }]);
      for (let i = 0; i < 6; i++) {
        const calls = await Promise.all([1, 2, 3].map(() => anon.rpc('rest_replaced')));
        for (const c of calls) expect(c.data).toEqual([{ word: 'seven', n: 7 }]);
      }
    });

    it('functions see the caller claims', async () => {
      expect((await alice.client.rpc('rest_whoami')).data).toEqual({ uid: alice.id, role: 'authenticated' });
      expect((await anon.rpc('rest_whoami')).data).toEqual({ uid: null, role: 'anon' });
    });

    it('set and table returns are arrays, filterable and orderable', async () => {
      const sq = await anon
        .rpc('rest_squares', { x: 4 })
        .gt('sq', 1)
        .order('n', { ascending: false })
        .limit(2);
      expect(sq.error).toBeNull();
      expect(sq.data).toEqual([
        { n: 4, sq: 16 },
        { n: 3, sq: 9 },
      ]);
      expect((await anon.rpc('rest_words')).data).toEqual(['alpha', 'beta', 'gamma']);
      const visible = await bob.client.rpc('rest_visible_notes', { min_score: 1 }).select('title');
      expect((visible.data as { title: string }[]).map((r) => r.title).sort()).toEqual([
        'bob private',
        'public one',
      ]);
    });

    it('a function returning one row answers an object', async () => {
      const id = (await service.from('rest_notes').select('id').eq('title', 'public one').single()).data!.id;
      const r = await anon.rpc('rest_note', { note_id: id }).select('title');
      expect(r.data).toEqual({ title: 'public one' });
    });

    it('json and array arguments round-trip', async () => {
      expect((await anon.rpc('rest_echo', { payload: { a: [1, { b: 'c' }] } })).data).toEqual({
        a: [1, { b: 'c' }],
      });
      expect((await anon.rpc('rest_tags_of', { t: ['x', 'y', 'z'] })).data).toBe(3);
      expect((await anon.rpc('rest_tags_of', { t: ['x', 'y'] }, { get: true })).data).toBe(2);
      const head = await anon.rpc('rest_squares', { x: 3 }, { head: true, count: 'exact' });
      expect(head.error).toBeNull();
      expect(head.data).toBeNull();
      expect(head.count).toBe(3);
    });

    it('head: true with object arguments runs the function and answers no body', async () => {
      const r = await anon.rpc('rest_echo', { payload: { a: 1 } }, { head: true });
      expect(r.error).toBeNull();
      expect(r.data).toBeNull();
    });

    it('void functions answer no content; raised errors keep code, hint and status', async () => {
      const fail = await anon.rpc('rest_fail', { msg: 'nope' });
      expect(fail.status).toBe(400);
      expect(fail.error).toMatchObject({ code: 'P0001', message: 'nope', hint: 'from rest_fail' });
      const pay = await anon.rpc('rest_payment_required');
      expect(pay.status).toBe(402);
      expect(pay.error?.code).toBe('PT402');
    });

    it('unknown function or arguments answer 404 PGRST202', async () => {
      const r = await anon.rpc('rest_nothing_here');
      expect(r.status).toBe(404);
      expect(r.error?.code).toBe('PGRST202');
      const wrongArg = await anon.rpc('rest_add', { z: 1 });
      expect(wrongArg.status).toBe(404);
    });

    it('a volatile function over GET runs read-only and is refused with 405', async () => {
      const id = (await alice.client.from('rest_notes').select('id').eq('title', 'first').single()).data!.id;
      const viaGet = await alice.client.rpc('rest_bump', { note_id: id }, { get: true });
      expect(viaGet.status).toBe(405);
      expect(viaGet.error?.code).toBe('25006');
      const viaPost = await alice.client.rpc('rest_bump', { note_id: id });
      expect(viaPost.error).toBeNull();
      expect(typeof viaPost.data).toBe('number');
    });

    it('reads and stable functions run read-only as on PostgREST: a view or stable function that writes is refused with 405', async () => {
      // GET and HEAD on a table or view: read-only, whatever the function behind the view.
      const viaView = await alice.client.from('rest_call_counter').select('n');
      expect(viaView.status).toBe(405);
      expect(viaView.error?.code).toBe('25006');
      const head = await alice.client.from('rest_call_counter').select('n', { head: true, count: 'exact' });
      expect(head.status).toBe(405);
      // POST to a stable function: read-only too (PostgREST goes by the function's volatility).
      const stable = await alice.client.rpc('rest_stable_but_counts');
      expect(stable.status).toBe(405);
      expect(stable.error?.code).toBe('25006');
      // The same write from a volatile function over POST goes through, and the refused calls took no number.
      const first = await alice.client.rpc('rest_count_call');
      expect(first.error).toBeNull();
      expect(first.data).toBe(1);
      // Stable and immutable functions over POST still answer normally.
      const add = await alice.client.rpc('rest_add', { a: 2, b: 3 });
      expect(add.data).toBe(5);
      const mine = await alice.client.rpc('rest_whoami');
      expect(mine.data).toMatchObject({ uid: alice.id, role: 'authenticated' });
    });
  });

  describe('auth and errors', () => {
    it('requires an API key and refuses bad or expired tokens with 401', async () => {
      const noKey = await fetch(`${t.url}/rest/v1/rest_tags`);
      expect(noKey.status).toBe(401);
      const badKey = await fetch(`${t.url}/rest/v1/rest_tags`, { headers: { apikey: 'nope' } });
      expect(badKey.status).toBe(401);
      const badToken = await makeClient(t, t.anonKey, 'not.a.jwt').from('rest_tags').select();
      expect(badToken.status).toBe(401);
      expect(badToken.error?.code).toBe('PGRST301');
      const expired = await t.server.ctx.keys.sign({ role: 'authenticated', sub: alice.id } as never, -10);
      const exp = await makeClient(t, t.anonKey, expired).from('rest_tags').select();
      expect(exp.status).toBe(401);
      expect(exp.error?.code).toBe('PGRST303');
    });

    it('unknown table, column or operator answer 4xx in PostgREST shape', async () => {
      const table = await anon.from('rest_nope').select();
      expect(table.status).toBe(404);
      expect(table.error?.code).toBe('PGRST205');
      const col = await anon.from('rest_notes').select('nope');
      expect(col.status).toBe(400);
      expect(col.error?.code).toBe('42703');
      const filt = await anon.from('rest_notes').select().filter('title', 'zz', 'x');
      expect(filt.status).toBe(400);
      expect(filt.error?.code).toBe('PGRST100');
      const insertCol = await alice.client
        .from('rest_notes')
        .insert({ owner_id: alice.id, title: 'x', nope: 1 });
      expect(insertCol.status).toBe(400);
      expect(insertCol.error?.code).toBe('PGRST204');
    });

    it('tables outside public are not reachable', async () => {
      const r = await restFetch(t, 'rest_tags', { headers: { 'accept-profile': 'auth' } });
      expect(r.status).toBe(406);
      const users = await service.from('users').select();
      expect(users.status).toBe(404);
    });

    it('sees a table created after the first request', async () => {
      await anon.from('rest_tags').select();
      await t.db
        .exec(`create table public.rest_late (id int primary key); alter table public.rest_late enable row level security;
        create policy rest_late_read on public.rest_late for select using (true); insert into public.rest_late values (1);`);
      const r = await anon.from('rest_late').select();
      expect(r.error).toBeNull();
      expect(r.data).toEqual([{ id: 1 }]);
    });
  });
});
