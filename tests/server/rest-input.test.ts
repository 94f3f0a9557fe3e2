import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { makeMember, REST_FIXTURE_SQL, restFetch, type Member } from './rest-support.ts';

/** The rows of rest_notes as the service role sees them, to prove a refused request changed nothing. */
async function snapshotNotes(t: TestServer): Promise<string> {
  const r = await t.db.query<{ s: string }>(
    `select coalesce(json_agg(n order by id), '[]')::text as s from public.rest_notes n`,
  );
  return r.rows[0]?.s ?? '';
}

const INJECTIONS = [
  `'; drop table rest_notes; --`,
  `" or 1=1 --`,
  `1) or (1=1`,
  `x'||pg_sleep(1)||'`,
  `$1`,
  `$$ select 1 $$`,
  `title; select * from auth.users`,
  `(select password from auth.users)`,
  `\\'`,
  `%27%20or%201=1`,
  `*/ select 1 /*`,
  `title")) or true or (("`,
  `eq.x),or(true`,
  `\u0000`,
  `title->>'x'`,
  `title::text`,
  `"title"`,
  `../../etc/passwd`,
];

describe.each(getDatabaseKinds())('REST input safety on %s', (kind) => {
  let t: TestServer;
  let alice: Member;
  let noteId: string;

  beforeAll(async () => {
    t = await startTestServer(kind);
    await t.db.exec(REST_FIXTURE_SQL);
    alice = await makeMember(t, 'alice');
    const r = await alice.client
      .from('rest_notes')
      .insert({ owner_id: alice.id, title: 'keep me', score: 1 })
      .select('id')
      .single();
    expect(r.error).toBeNull();
    noteId = r.data!.id as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (path: string, method: string, body: string, prefer = 'return=representation') =>
    restFetch(t, path, {
      method,
      token: alice.token,
      headers: { 'content-type': 'application/json', prefer },
      body,
    });

  it('arbitrary JSON to every write answers 2xx or 4xx, never 5xx, and pollutes no prototype', async () => {
    const keys = fc.oneof(
      fc.constantFrom(
        'title',
        'owner_id',
        'score',
        'tags',
        'meta',
        'body',
        'id',
        '__proto__',
        'constructor',
        'prototype',
      ),
      fc.string({ maxLength: 20 }),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.string({ maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 50 }),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(keys, tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    const body = fc.oneof(
      value,
      fc.dictionary(keys, value, { maxKeys: 6 }),
      fc.array(fc.dictionary(keys, value, { maxKeys: 4 }), { maxLength: 3 }),
    );
    const targets = [
      ['rest_notes', 'POST'],
      ['rest_notes?on_conflict=id', 'POST'],
      [`rest_notes?id=eq.${'00000000-0000-0000-0000-000000000000'}`, 'PATCH'],
      ['rest_tags', 'POST'],
      ['rpc/rest_add', 'POST'],
      ['rpc/rest_echo', 'POST'],
      ['rpc/rest_tags_of', 'POST'],
    ] as const;
    const before = await snapshotNotes(t);
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...targets), async (b, [path, method]) => {
        const prefer = path.includes('on_conflict') ? 'resolution=merge-duplicates' : 'return=representation';
        const res = await send(path, method, JSON.stringify(b), prefer);
        await res.text();
        expect(res.status).toBeLessThan(500);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: 150 },
    );
    // Nothing aimed at rest_notes with a random body may have touched the existing row.
    const after = await snapshotNotes(t);
    expect(JSON.parse(after).find((n: { id: string }) => n.id === noteId)).toEqual(
      JSON.parse(before).find((n: { id: string }) => n.id === noteId),
    );
  });

  it('__proto__ and constructor keys are refused as unknown columns and pollute nothing', async () => {
    const raw = `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"title":"x","owner_id":"${alice.id}"}`;
    for (const [path, method] of [
      ['rest_notes', 'POST'],
      [`rest_notes?id=eq.${noteId}`, 'PATCH'],
    ] as const) {
      const res = await send(path, method, raw);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('PGRST204');
    }
    const rpc = await send('rpc/rest_echo', 'POST', `{"payload":{"__proto__":{"polluted":"yes"}}}`);
    expect(rpc.status).toBe(200);
    // The key comes back as plain data: an own property named __proto__, not a prototype.
    const echoed = JSON.parse(await rpc.text()) as object;
    expect(Object.keys(echoed)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(echoed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('malformed JSON, deep nesting, huge bodies and other media types answer 4xx', async () => {
    const before = await snapshotNotes(t);
    for (const body of ['{', '{"title":', '[1,', 'nul', '"\\ud800"x', '{"a":1}{"b":2}']) {
      const res = await send('rest_notes', 'POST', body);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('PGRST102');
    }
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const d = await send('rest_notes', 'POST', deep);
    expect(d.status).toBeGreaterThanOrEqual(400);
    expect(d.status).toBeLessThan(500);
    for (const levels of [300, 3000, 200_000]) {
      const deepRpc = await send(
        'rpc/rest_echo',
        'POST',
        `{"payload":${'['.repeat(levels)}${']'.repeat(levels)}}`,
      );
      expect(deepRpc.status).toBe(400);
      expect((await deepRpc.json()).code).toBe('PGRST102');
    }
    const fine = await send('rpc/rest_echo', 'POST', `{"payload":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect(fine.status).toBe(200);
    const huge = await send(
      'rest_notes',
      'POST',
      JSON.stringify({ owner_id: alice.id, title: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
    const big = await send(
      'rest_notes',
      'POST',
      JSON.stringify({ owner_id: alice.id, title: 'y'.repeat(300_000) }),
    );
    expect(big.status).toBe(400);
    expect((await big.json()).code).toBe('23514');
    const text = await restFetch(t, 'rest_notes', {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'text/plain' },
      body: 'title=x',
    });
    expect(text.status).toBe(415);
    const form = await restFetch(t, 'rest_notes', {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=x',
    });
    expect(form.status).toBe(415);
    expect(await snapshotNotes(t)).toBe(before);
  });

  it('other client mistakes answer 4xx: writes to a read-only view, bad ranges, wrong argument types', async () => {
    const view = await send('rest_note_titles', 'POST', JSON.stringify({ title: 'x' }));
    expect(view.status).toBeGreaterThanOrEqual(400);
    expect(view.status).toBeLessThan(500);
    for (const path of [
      'rest_notes?limit=-1',
      'rest_notes?offset=x',
      'rest_notes?order=',
      'rest_notes?select=*,',
      'rest_notes?score=eq.abc',
    ]) {
      const res = await restFetch(t, path, { token: alice.token });
      expect(res.status, path).toBe(400);
    }
    const range = await restFetch(t, 'rest_notes', { token: alice.token, headers: { range: 'bytes=a-b' } });
    expect(range.status).toBe(416);
    const wrongArg = await send('rpc/rest_add', 'POST', JSON.stringify({ a: 'one' }));
    expect(wrongArg.status).toBe(400);
    expect((await wrongArg.json()).code).toBe('22P02');
    const array = await send('rpc/rest_add', 'POST', JSON.stringify([1, 2]));
    expect(array.status).toBe(400);
  });

  it('SQL-ish strings in filters, columns, order and select answer 4xx or unchanged results, never 5xx', async () => {
    const before = await snapshotNotes(t);
    const paths: string[] = [];
    for (const s of INJECTIONS) {
      const e = encodeURIComponent(s);
      paths.push(
        `rest_notes?title=eq.${e}`,
        `rest_notes?title=like.${e}`,
        `rest_notes?title=in.(${e})`,
        `rest_notes?title=is.${e}`,
        `rest_notes?${e}=eq.1`,
        `rest_notes?title=${e}`,
        `rest_notes?or=(${e})`,
        `rest_notes?or=(title.eq.${e},score.eq.1)`,
        `rest_notes?and=(title.eq.x,${e})`,
        `rest_notes?order=${e}`,
        `rest_notes?order=title.${e}`,
        `rest_notes?select=${e}`,
        `rest_notes?select=title,${e}`,
        `rest_notes?select=x:${e}`,
        `rest_notes?select=title::${e}`,
        `rest_notes?meta->>${e}=eq.1`,
        `rest_notes?limit=${e}`,
        `rest_notes?offset=${e}`,
        `${e}`,
        `rpc/${e}`,
        `rpc/rest_add?a=${e}`,
      );
    }
    for (const path of paths) {
      const res = await restFetch(t, path, { token: alice.token });
      const body = await res.text();
      expect(res.status, `${path} -> ${body}`).toBeLessThan(500);
      if (res.status === 200 && path.startsWith('rest_notes?title=eq.')) expect(JSON.parse(body)).toEqual([]);
    }
    expect(await snapshotNotes(t)).toBe(before);
    const stillThere = await restFetch(t, 'rest_notes?select=title', { token: alice.token });
    expect(await stillThere.json()).toEqual([{ title: 'keep me' }]);
  });

  it('random query strings never produce a 5xx', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'select',
        'order',
        'limit',
        'offset',
        'or',
        'and',
        'not.or',
        'title',
        'score',
        'meta->>a',
        'tags',
      ),
      fc.string({ maxLength: 12 }),
    );
    const val = fc.oneof(
      fc.constantFrom(
        'eq.',
        'not.',
        'in.(',
        'is.',
        'cs.{',
        'like.',
        '(',
        ')',
        ',',
        '"',
        '.',
        '->',
        '::',
        '*',
        'desc',
        'nullsfirst',
      ),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    const before = await snapshotNotes(t);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(piece, fc.array(val, { maxLength: 5 })), { maxLength: 4 }),
        async (pairs) => {
          const qs = pairs
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.join(''))}`)
            .join('&');
          const res = await restFetch(t, `rest_notes?${qs}`, { token: alice.token });
          const body = await res.text();
          expect(res.status, `?${qs} -> ${body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
    expect(await snapshotNotes(t)).toBe(before);
  });

  it('unicode is stored byte-exact; NUL is refused with 4xx and stores nothing', async () => {
    const tricky = 'Lo\u202Eve\u200B\u200D 😀👩‍❤️‍👨 é e\u0301 \uFEFF مرحبا';
    const ins = await alice.client
      .from('rest_notes')
      .insert({ owner_id: alice.id, title: tricky, body: tricky, meta: { s: tricky } })
      .select('title, body, meta')
      .single();
    expect(ins.error).toBeNull();
    expect(ins.data).toEqual({ title: tricky, body: tricky, meta: { s: tricky } });
    const read = await alice.client.from('rest_notes').select('title').eq('title', tricky).single();
    expect(Buffer.from(read.data!.title as string, 'utf8').equals(Buffer.from(tricky, 'utf8'))).toBe(true);
    const before = await snapshotNotes(t);
    for (const bad of [{ title: 'a\u0000b' }, { body: '\u0000' }, { meta: { x: 'nul\u0000' } }]) {
      const r = await alice.client.from('rest_notes').insert({ owner_id: alice.id, title: 'nul', ...bad });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const upd = await alice.client.from('rest_notes').update({ body: 'x\u0000' }).eq('id', noteId);
    expect(upd.status).toBe(400);
    const filter = await alice.client.from('rest_notes').select('title').eq('title', 'a\u0000b');
    expect(filter.status).toBeGreaterThanOrEqual(400);
    expect(filter.status).toBeLessThan(500);
    expect(await snapshotNotes(t)).toBe(before);
  });
});
