// Storage through the real storage-js client: round trips, re-encoding, the upload attack rows and access.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PDF,
  SCRIPT_MARKER,
  SVG,
  ZIP_MARKER,
  makeGif,
  makeJpegWithGps,
  makePixelBombPng,
  makePlainJpeg,
  makePng,
  makePolyglotJpeg,
  makeRotatedJpeg,
} from '../fixtures/images.ts';
import { createAnonClient, createMember, type TestMember } from '../fixtures/members.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

async function blobBytes(b: Blob | null): Promise<Buffer> {
  if (!b) throw new Error('no blob');
  return Buffer.from(await b.arrayBuffer());
}

function countStoredFiles(t: TestServer): number {
  const root = path.join(t.dataDir, 'storage');
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name !== '.tmp' && !d.parentPath.includes('.tmp')).length;
}

function sendRaw(t: TestServer, rawPath: string, token: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.url}${rawPath}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.path = rawPath;
    req.on('error', reject);
    req.end(body);
  });
}

async function countRows(t: TestServer, owner: string): Promise<number> {
  const r = await t.db.query<{ n: string }>(
    'select count(*)::int8 as n from storage.objects where owner = $1',
    [owner],
  );
  return Number(r.rows[0]?.n);
}

describe.each(getDatabaseKinds())('storage on %s', (kind) => {
  let t: TestServer;
  let a: TestMember;
  let b: TestMember;
  beforeAll(async () => {
    t = await startTestServer(kind);
    a = await createMember(t, 'Ann');
    b = await createMember(t, 'Ben');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('strips camera EXIF and GPS from an uploaded JPEG, on disk and as served', async () => {
    const original = await makeJpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const key = `${a.id}/with-gps.jpg`;
    const up = await a.client.storage
      .from('profile-photos')
      .upload(key, original, { contentType: 'image/jpeg' });
    expect(up.error).toBeNull();
    expect(up.data?.fullPath).toBe(`profile-photos/${key}`);

    const down = await a.client.storage.from('profile-photos').download(key);
    expect(down.error).toBeNull();
    const served = await blobBytes(down.data);
    const meta = await sharp(served).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.includes('CanonTestMake')).toBe(false);
    expect(served.includes('Exif')).toBe(false);

    const row = await t.db.query<{ version: string }>(
      'select version from storage.objects where bucket_id = $1 and name = $2',
      ['profile-photos', key],
    );
    const version = row.rows[0]!.version;
    const onDisk = fs.readFileSync(
      path.join(t.dataDir, 'storage', 'profile-photos', version.slice(0, 2), version),
    );
    expect(onDisk.equals(served)).toBe(true);
  });

  it('serves an EXIF-rotated JPEG upright, blue on top', async () => {
    const key = `${a.id}/rotated.jpg`;
    const up = await a.client.storage.from('profile-photos').upload(key, await makeRotatedJpeg());
    expect(up.error).toBeNull();
    const served = await blobBytes((await a.client.storage.from('profile-photos').download(key)).data);
    const meta = await sharp(served).metadata();
    expect([meta.width, meta.height]).toEqual([20, 40]);
    expect(meta.orientation).toBeUndefined();
    const { data, info } = await sharp(served).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(pixel(10, 5)[2]).toBeGreaterThan(200); // blue on top
    expect(pixel(10, 35)[0]).toBeGreaterThan(200); // red at the bottom
  });

  it('re-encodes a polyglot JPEG without its trailing ZIP and script, served as an image with nosniff', async () => {
    const key = `${a.id}/polyglot.jpg`;
    const up = await a.client.storage.from('profile-photos').upload(key, await makePolyglotJpeg());
    expect(up.error).toBeNull();
    const res = await fetch(`${t.url}/storage/v1/object/authenticated/profile-photos/${key}`, {
      headers: { authorization: `Bearer ${a.accessToken}`, apikey: t.anonKey },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.includes(ZIP_MARKER)).toBe(false);
    expect(body.includes(SCRIPT_MARKER)).toBe(false);
    expect((await sharp(body).metadata()).format).toBe('jpeg');
  });

  it('stores PNG as WebP and keeps the client key, not the name, out of the disk path', async () => {
    const key = `${a.id}/picture.png`;
    const up = await a.client.storage.from('profile-photos').upload(key, await makePng());
    expect(up.error).toBeNull();
    const down = await a.client.storage.from('profile-photos').download(key);
    expect(down.data?.type).toBe('image/webp');
    const names = fs.readdirSync(path.join(t.dataDir, 'storage'), { recursive: true }).map(String);
    expect(names.some((n) => n.includes('picture'))).toBe(false);
  });

  it.each([
    ['an SVG', SVG, 'image/svg+xml'],
    ['a PDF', PDF, 'application/pdf'],
    ['plain text', Buffer.from('just some words'), 'image/jpeg'],
  ])('refuses %s with 415 whatever its name and content-type', async (_label, bytes, contentType) => {
    const before = await countRows(t, a.id);
    const { error } = await a.client.storage
      .from('profile-photos')
      .upload(`${a.id}/fake.jpg`, bytes, { contentType, upsert: true });
    expect(error).toMatchObject({ status: 415 });
    expect(await countRows(t, a.id)).toBe(before);
  });

  it('refuses a GIF renamed .jpg', async () => {
    const { error } = await a.client.storage
      .from('profile-photos')
      .upload(`${a.id}/renamed.jpg`, await makeGif(), { contentType: 'image/jpeg' });
    expect(error).toMatchObject({ status: 415 });
  });

  it('refuses a 16000x16000 PNG pixel bomb without decoding it', async () => {
    const bomb = makePixelBombPng(16000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const { error } = await a.client.storage.from('profile-photos').upload(`${a.id}/bomb.png`, bomb);
    expect(error).toMatchObject({ status: 422 });
    expect(error?.message).toMatch(/megapixels/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 413 to a 10 MB body, from its content-length, without a row', async () => {
    const before = await countRows(t, a.id);
    const res = await fetch(`${t.url}/storage/v1/object/profile-photos/${a.id}/huge.jpg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.accessToken}`, 'content-type': 'image/jpeg' },
      body: Buffer.alloc(10 * 1024 * 1024, 0xff),
    }).catch((e: unknown) => e as Error);
    // The server may answer and close before the client finished sending; either way nothing is stored.
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ statusCode: '413' });
    }
    expect(await countRows(t, a.id)).toBe(before);
  });

  it('answers 413 to a chunked body that grows past the limit', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0xff);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${t.url}/storage/v1/object/profile-photos/${a.id}/chunked.jpg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.accessToken}`, 'content-type': 'image/jpeg' },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e as Error);
    if (res instanceof Response) expect(res.status).toBe(413);
    expect(sent).toBeLessThan(12 + 1);
    expect(await countRows(t, a.id)).toBeLessThan(50);
  });

  it.each([
    ['a traversal key', '../../x.js'],
    ['an encoded traversal key', '..%2F..%2Fx.js'],
    ['an encoded dot-dot segment', '%2e%2e/x.js'],
    ['a backslash', 'a%5C..%5Cx.js'],
  ])('refuses %s with 400', async (_label, suffix) => {
    // node:http sends the path as written; fetch would normalise dot segments away before sending.
    const status = await sendRaw(
      t,
      `/storage/v1/object/profile-photos/${a.id}/${suffix}`,
      a.accessToken,
      await makePlainJpeg(),
    );
    expect(status).toBe(400);
    expect(fs.existsSync(path.join(t.dataDir, 'x.js'))).toBe(false);
  });

  it('refuses a 5 KB object name with 400', async () => {
    const { error } = await a.client.storage
      .from('profile-photos')
      .upload(`${a.id}/${'n'.repeat(5000)}.jpg`, await makePlainJpeg());
    expect(error).toMatchObject({ status: 400 });
  });

  it("refuses a member's upload into another member's folder", async () => {
    const { error } = await b.client.storage
      .from('profile-photos')
      .upload(`${a.id}/intruder.jpg`, await makePlainJpeg());
    expect(error).toMatchObject({ status: 403 });
    expect(await countRows(t, b.id)).toBe(0);
  });

  it('refuses anonymous uploads and anonymous reads of profile photos', async () => {
    const anon = createAnonClient(t);
    const up = await anon.storage.from('profile-photos').upload(`${a.id}/anon.jpg`, await makePlainJpeg());
    expect(up.error).toMatchObject({ status: 403 });
    const down = await anon.storage.from('profile-photos').download(`${a.id}/with-gps.jpg`);
    expect(down.error).not.toBeNull();
    const res = await fetch(`${t.url}/storage/v1/object/public/profile-photos/${a.id}/with-gps.jpg`);
    expect(res.status).toBe(404);
  });

  it('answers 401 to a forged token', async () => {
    const res = await fetch(`${t.url}/storage/v1/object/authenticated/profile-photos/${a.id}/with-gps.jpg`, {
      headers: { authorization: `Bearer ${a.accessToken.slice(0, -4)}AAAA` },
    });
    expect(res.status).toBe(401);
  });

  it('lets another member read a profile photo, and refuses it once removed', async () => {
    const key = `${a.id}/shared.jpg`;
    expect(
      (await a.client.storage.from('profile-photos').upload(key, await makePlainJpeg())).error,
    ).toBeNull();
    expect((await b.client.storage.from('profile-photos').download(key)).error).toBeNull();
    const signed = await b.client.storage.from('profile-photos').createSignedUrl(key, 60);
    expect(signed.error).toBeNull();
    expect((await fetch(signed.data!.signedUrl)).status).toBe(200);

    // B cannot remove A's photo: the policy hides it from B's delete, so nothing is removed.
    const bRemove = await b.client.storage.from('profile-photos').remove([key]);
    expect(bRemove.data).toEqual([]);
    expect((await b.client.storage.from('profile-photos').download(key)).error).toBeNull();

    const filesBefore = countStoredFiles(t);
    const removed = await a.client.storage.from('profile-photos').remove([key]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((o) => o.name)).toEqual([key]);
    expect(countStoredFiles(t)).toBe(filesBefore - 1);
    expect((await b.client.storage.from('profile-photos').download(key)).error).toMatchObject({
      status: 404,
    });
    expect((await fetch(signed.data!.signedUrl)).status).toBe(404);
  });

  it('refuses a signed URL after it expires or when its token is altered', async () => {
    const key = `${a.id}/expiring.jpg`;
    expect(
      (await a.client.storage.from('profile-photos').upload(key, await makePlainJpeg())).error,
    ).toBeNull();
    const signed = await a.client.storage.from('profile-photos').createSignedUrl(key, 1);
    const url = signed.data!.signedUrl;
    expect((await fetch(url)).status).toBe(200);
    const other = url.replace(/expiring\.jpg/, 'shared.jpg');
    expect((await fetch(other)).status).toBe(400);
    expect((await fetch(`${url.slice(0, -3)}abc`)).status).toBe(400);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(url)).status).toBe(400);
  });

  it('replaces a file with upsert, removing the old file, and refuses a duplicate without it', async () => {
    const key = `${a.id}/replace.jpg`;
    expect(
      (await a.client.storage.from('profile-photos').upload(key, await makePlainJpeg(16, 16))).error,
    ).toBeNull();
    const dup = await a.client.storage.from('profile-photos').upload(key, await makePlainJpeg(16, 16));
    expect(dup.error).toMatchObject({ status: 409 });
    const files = countStoredFiles(t);
    const up = await a.client.storage
      .from('profile-photos')
      .upload(key, await makePlainJpeg(32, 8), { upsert: true });
    expect(up.error).toBeNull();
    expect(countStoredFiles(t)).toBe(files);
    const served = await blobBytes((await a.client.storage.from('profile-photos').download(key)).data);
    expect((await sharp(served).metadata()).width).toBe(32);
  });

  it('lists a folder one level deep', async () => {
    const { data, error } = await a.client.storage.from('profile-photos').list(a.id);
    expect(error).toBeNull();
    expect(data?.map((o) => o.name)).toContain('replace.jpg');
    expect(data?.every((o) => o.id !== null)).toBe(true);
    const rootList = await a.client.storage.from('profile-photos').list();
    expect(rootList.data).toContainEqual(expect.objectContaining({ name: a.id, id: null }));
  });

  /** A and the new member like each other through REST, which makes their match and conversation. */
  async function matchWith(m: TestMember): Promise<string> {
    for (const [from, to] of [
      [a, m],
      [m, a],
    ] as const) {
      const { error } = await from.client
        .from('user_interactions')
        .insert({ user_id: from.id, target_id: to.id, interaction_type: 'like' });
      expect(error).toBeNull();
    }
    const conv = await t.db.query<{ id: string }>(
      'select id from public.conversations where $1 in (participant1_id, participant2_id) and $2 in (participant1_id, participant2_id)',
      [a.id, m.id],
    );
    expect(conv.rows).toHaveLength(1);
    return conv.rows[0]!.id;
  }

  it('keeps chat media readable by the two participants only', async () => {
    const m = await createMember(t, 'Mia');
    const cid = await matchWith(m);
    const key = `${cid}/${a.id}/photo.jpg`;
    expect((await a.client.storage.from('chat-media').upload(key, await makePlainJpeg())).error).toBeNull();
    expect((await m.client.storage.from('chat-media').download(key)).error).toBeNull();
    expect((await b.client.storage.from('chat-media').download(key)).error).toMatchObject({ status: 404 });
    expect((await b.client.storage.from('chat-media').createSignedUrl(key, 60)).error).toMatchObject({
      status: 404,
    });
    // B can neither write into the conversation nor pose as A in it.
    const bWrite = await b.client.storage
      .from('chat-media')
      .upload(`${cid}/${b.id}/x.jpg`, await makePlainJpeg());
    expect(bWrite.error).toMatchObject({ status: 403 });
    const mAsA = await m.client.storage
      .from('chat-media')
      .upload(`${cid}/${a.id}/x.jpg`, await makePlainJpeg());
    expect(mAsA.error).toMatchObject({ status: 403 });
  });

  it('hides photos and chat media between members once one blocks the other', async () => {
    const m = await createMember(t, 'Max');
    const cid = await matchWith(m);
    const chatKey = `${cid}/${a.id}/before-block.jpg`;
    const photoKey = `${m.id}/me.jpg`;
    expect(
      (await a.client.storage.from('chat-media').upload(chatKey, await makePlainJpeg())).error,
    ).toBeNull();
    expect(
      (await m.client.storage.from('profile-photos').upload(photoKey, await makePlainJpeg())).error,
    ).toBeNull();
    expect((await a.client.storage.from('profile-photos').download(photoKey)).error).toBeNull();
    // URLs A asked for before the block: a week is asked, ten minutes are given, and the block ends them.
    const signedPhoto = await a.client.storage
      .from('profile-photos')
      .createSignedUrl(photoKey, 7 * 24 * 3600);
    const signedChat = await a.client.storage.from('chat-media').createSignedUrl(chatKey, 3600);
    const expiry = JSON.parse(
      Buffer.from(
        new URL(signedPhoto.data!.signedUrl).searchParams.get('token')!.split('.')[1]!,
        'base64url',
      ).toString(),
    ) as { exp: number; iat: number };
    expect(expiry.exp - expiry.iat).toBe(600);
    expect((await fetch(signedPhoto.data!.signedUrl)).status).toBe(200);
    expect((await fetch(signedChat.data!.signedUrl)).status).toBe(200);

    const { error } = await m.client.from('blocked_users').insert({ blocker_id: m.id, blocked_id: a.id });
    expect(error).toBeNull();
    expect((await fetch(signedPhoto.data!.signedUrl)).status).toBe(404);
    expect((await fetch(signedChat.data!.signedUrl)).status).toBe(404);

    expect((await a.client.storage.from('profile-photos').download(photoKey)).error).toMatchObject({
      status: 404,
    });
    expect((await a.client.storage.from('chat-media').download(chatKey)).error).toMatchObject({
      status: 404,
    });
    expect((await m.client.storage.from('chat-media').download(chatKey)).error).toMatchObject({
      status: 404,
    });
    const send = await a.client.storage
      .from('chat-media')
      .upload(`${cid}/${a.id}/after.jpg`, await makePlainJpeg());
    expect(send.error).toMatchObject({ status: 403 });
    // Others still see M's photo.
    expect((await b.client.storage.from('profile-photos').download(photoKey)).error).toBeNull();
  });

  it('enforces the per-member quota of 50 files', async () => {
    const q = await createMember(t, 'Quinn');
    const img = await makePlainJpeg(8, 8);
    for (let i = 0; i < 50; i++) {
      const { error } = await q.client.storage.from('profile-photos').upload(`${q.id}/${i}.jpg`, img);
      expect(error).toBeNull();
    }
    const over = await q.client.storage.from('profile-photos').upload(`${q.id}/50.jpg`, img);
    expect(over.error).toMatchObject({ status: 403 });
    expect(over.error?.message).toMatch(/quota/i);
    expect(await countRows(t, q.id)).toBe(50);
    // Replacing an existing file stays within the quota.
    expect(
      (await q.client.storage.from('profile-photos').upload(`${q.id}/0.jpg`, img, { upsert: true })).error,
    ).toBeNull();
  });

  it('accepts a Blob upload (multipart, as browsers send it) and reports it with exists()', async () => {
    const key = `${a.id}/from-blob.jpg`;
    const blob = new Blob([new Uint8Array(await makeJpegWithGps())], { type: 'image/jpeg' });
    const up = await a.client.storage.from('profile-photos').upload(key, blob);
    expect(up.error).toBeNull();
    const served = await blobBytes((await a.client.storage.from('profile-photos').download(key)).data);
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    expect((await a.client.storage.from('profile-photos').exists(key)).data).toBe(true);
    expect((await a.client.storage.from('profile-photos').exists(`${a.id}/nope.jpg`)).data).toBe(false);
    const info = await a.client.storage.from('profile-photos').info(key);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: key, bucketId: 'profile-photos', contentType: 'image/jpeg' });
    expect(info.data?.size).toBe(served.length);
    expect((await createAnonClient(t).storage.from('profile-photos').info(key)).error).toMatchObject({
      status: 404,
    });
  });

  it('signs several URLs at once, with an error entry for what the caller cannot see', async () => {
    const key = `${a.id}/from-blob.jpg`;
    const { data, error } = await b.client.storage
      .from('profile-photos')
      .createSignedUrls([key, `${a.id}/missing.jpg`], 60);
    expect(error).toBeNull();
    expect(data?.[0]?.error).toBeNull();
    expect((await fetch(data![0]!.signedUrl!)).status).toBe(200);
    expect(data?.[1]?.error).toMatch(/does not exist/);
  });

  it('answers only 4xx to arbitrary JSON bodies on sign, remove and list', async () => {
    const endpoints: Array<[string, string]> = [
      ['POST', `/storage/v1/object/sign/profile-photos/${a.id}/from-blob.jpg`],
      ['POST', '/storage/v1/object/sign/profile-photos'],
      ['DELETE', '/storage/v1/object/profile-photos'],
      ['POST', '/storage/v1/object/list/profile-photos'],
    ];
    const rowsBefore = await countRows(t, a.id);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), fc.jsonValue(), async ([method, route], body) => {
        const res = await fetch(`${t.url}${route}`, {
          method,
          headers: { authorization: `Bearer ${b.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return res.status < 500;
      }),
      { numRuns: 60 },
    );
    expect(await countRows(t, a.id)).toBe(rowsBefore);
  });

  it('answers 503 and keeps neither a row nor a half file when the disk cannot be written', async () => {
    const tmpDir = path.join(t.dataDir, 'storage', '.tmp');
    fs.mkdirSync(path.dirname(tmpDir), { recursive: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
    fs.writeFileSync(tmpDir, 'not a folder'); // mkdir/open inside now fail, as on a broken disk (root ignores chmod)
    try {
      const before = await countRows(t, a.id);
      const files = countStoredFiles(t);
      const { error } = await a.client.storage
        .from('profile-photos')
        .upload(`${a.id}/disk.jpg`, await makePlainJpeg());
      expect(error).toMatchObject({ status: 503 });
      expect(await countRows(t, a.id)).toBe(before);
      expect(countStoredFiles(t)).toBe(files);
    } finally {
      fs.rmSync(tmpDir, { force: true });
    }
  });

  it('rolls the row back when the file cannot be put in place', async () => {
    const bucketDir = path.join(t.dataDir, 'storage', 'chat-media');
    const aside = `${bucketDir}.aside`;
    fs.mkdirSync(path.dirname(bucketDir), { recursive: true });
    if (fs.existsSync(bucketDir)) fs.renameSync(bucketDir, aside);
    fs.writeFileSync(bucketDir, 'not a folder'); // the rename into <bucket>/<xx>/ now fails
    try {
      const m = await createMember(t, 'Rae');
      const cid = await matchWith(m);
      const before = await countRows(t, a.id);
      const { error } = await a.client.storage
        .from('chat-media')
        .upload(`${cid}/${a.id}/nowhere.jpg`, await makePlainJpeg());
      expect(error).toMatchObject({ status: 503 });
      expect(await countRows(t, a.id)).toBe(before);
      expect(fs.readdirSync(path.join(t.dataDir, 'storage', '.tmp'))).toEqual([]);
    } finally {
      fs.rmSync(bucketDir, { force: true });
      if (fs.existsSync(aside)) fs.renameSync(aside, bucketDir);
    }
  });
});
