// Supabase-compatible /storage/v1 for the routes storage-js uses: upload, download, remove, signed URLs
// and list. Every storage.objects row operation runs as the caller, so the policies decide access.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { isDatabaseError, type Queryable } from '../db/database.ts';
import { actAsCaller, withCaller } from '../caller/caller.ts';
import { getCallerClaims } from './caller.ts';
import { FileStore } from './file-store.ts';
import {
  MAX_BYTES_PER_MEMBER,
  MAX_FILES_PER_MEMBER,
  MAX_MEMBER_MEDIA_URL_SECONDS,
  MAX_SIGNED_URL_SECONDS,
  MEMBER_MEDIA_BUCKETS,
  MAX_UPLOAD_BYTES,
} from './limits.ts';
import { checkBucketId, checkObjectName, splitBucketAndName } from './object-names.ts';
import { reencodeImage } from './reencode-image.ts';
import { loadOrCreateSigner, type SignedUrlSigner } from './signed-urls.ts';
import { StorageError, badRequest, notFound } from './storage-error.ts';

/** Room for the multipart envelope around a file of MAX_UPLOAD_BYTES. */
const MULTIPART_SLACK = 64 * 1024;
const LIST_SCAN_LIMIT = 1000;

interface ObjectMetadata {
  eTag?: string;
  size?: number;
  mimetype?: string;
  cacheControl?: string;
}

interface ObjectRow {
  id: string;
  name: string;
  owner: string | null;
  version: string | null;
  metadata: ObjectMetadata;
  created_at: string | Date;
  updated_at: string | Date;
  last_accessed_at: string | Date;
}

const OBJECT_COLUMNS = 'id, name, owner, version, metadata, created_at, updated_at, last_accessed_at';

const tooLarge = () =>
  new StorageError(
    413,
    'Payload too large',
    `The object exceeded the maximum allowed size of ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`,
  );

export async function registerStorage(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const store = new FileStore(ctx.config.dataDir);
  const signer = loadOrCreateSigner(ctx.config.dataDir);
  await app.register(
    async (scope) => {
      // Bodies arrive as raw bytes (images or JSON); Fastify stops reading past the limit and answers 413,
      // refusing at once when content-length already says too much.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES + MULTIPART_SLACK },
        (_req, body, done) => done(null, body),
      );
      scope.setErrorHandler((err, req, reply) => sendError(err, req, reply));
      registerRoutes(scope, ctx, store, signer);
    },
    { prefix: '/storage/v1' },
  );
}

function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof StorageError) return reply.code(err.status).send(err.toBody());
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 413) return reply.code(413).send(tooLarge().toBody());
  if (typeof status === 'number' && status >= 400 && status < 500)
    return reply
      .code(status)
      .send(new StorageError(status, 'InvalidRequest', (err as Error).message).toBody());
  if (isDatabaseError(err)) {
    if (err.code === '42501')
      return reply
        .code(403)
        .send(new StorageError(403, 'Unauthorized', 'new row violates row-level security policy').toBody());
    if (err.code === '23505')
      return reply.code(409).send(new StorageError(409, 'Duplicate', 'The resource already exists').toBody());
  }
  req.log.error({ err }, 'storage request failed');
  return reply.code(500).send({ statusCode: '500', error: 'internal', message: 'Internal server error' });
}

function getWildcard(req: FastifyRequest): string {
  return (req.params as Record<string, string | undefined>)['*'] ?? '';
}

function parseJsonBody(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('The body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** The file bytes of an upload: the raw body, or the file part of a multipart form (browsers send Blobs so). */
async function readUploadBody(req: FastifyRequest): Promise<{ file: Buffer; cacheControl?: string }> {
  const body = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The upload is empty', 'EmptyBody');
  const contentType = req.headers['content-type'] ?? '';
  const headerCache = req.headers['cache-control'];
  const cacheFromHeader =
    typeof headerCache === 'string' ? /max-age=(\d+)/.exec(headerCache)?.[1] : undefined;
  if (!contentType.toLowerCase().startsWith('multipart/form-data'))
    return { file: body, ...(cacheFromHeader ? { cacheControl: cacheFromHeader } : {}) };
  let form: FormData;
  try {
    form = await new Request('http://storage.local/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    }).formData();
  } catch {
    throw badRequest('The multipart body could not be read');
  }
  let file: Blob | undefined;
  for (const value of form.values()) {
    if (typeof value !== 'string') {
      file = value;
      break;
    }
  }
  if (!file) throw badRequest('The multipart body has no file', 'EmptyBody');
  const cacheControl = form.get('cacheControl');
  return {
    file: Buffer.from(await file.arrayBuffer()),
    ...(typeof cacheControl === 'string' && /^\d+$/.test(cacheControl) ? { cacheControl } : {}),
  };
}

async function checkBucketExists(ctx: AppContext, bucket: string): Promise<void> {
  const r = await ctx.db.query('select 1 from storage.buckets where id = $1', [bucket]);
  if (r.rows.length === 0) throw new StorageError(404, 'Bucket not found', 'Bucket not found');
}

/** Reads one object row as the caller (undefined when it does not exist or policies hide it). */
async function findVisibleObject(
  ctx: AppContext,
  claims: JwtClaims,
  bucket: string,
  name: string,
): Promise<ObjectRow | undefined> {
  return withCaller(
    ctx.db,
    claims,
    async (tx) => {
      const r = await tx.query<ObjectRow>(
        `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
        [bucket, name],
      );
      return r.rows[0];
    },
    { read: 'one statement' },
  );
}

function parseExpiresIn(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SIGNED_URL_SECONDS)
    throw badRequest(`expiresIn must be a whole number of seconds from 1 to ${MAX_SIGNED_URL_SECONDS}`);
  return n;
}

function toIso(v: string | Date): string {
  return v instanceof Date ? v.toISOString() : new Date(v).toISOString();
}

function toPublicObject(bucket: string, row: ObjectRow) {
  return {
    name: row.name,
    bucket_id: bucket,
    owner: row.owner,
    id: row.id,
    updated_at: toIso(row.updated_at),
    created_at: toIso(row.created_at),
    last_accessed_at: toIso(row.last_accessed_at),
    metadata: row.metadata,
  };
}

function registerRoutes(app: FastifyInstance, ctx: AppContext, store: FileStore, signer: SignedUrlSigner) {
  async function sendObject(req: FastifyRequest, reply: FastifyReply, bucket: string, row: ObjectRow) {
    const file = row.version ? await store.findFile(bucket, row.version) : undefined;
    if (!file) {
      req.log.warn({ bucket, id: row.id }, 'storage object row without a file');
      throw notFound();
    }
    const maxAge = Math.min(Number(row.metadata.cacheControl ?? 3600) || 0, 86400);
    reply
      .header('content-type', row.metadata.mimetype ?? 'application/octet-stream')
      .header('content-length', file.size)
      .header('cache-control', `private, max-age=${maxAge}`)
      .header('last-modified', new Date(row.updated_at).toUTCString())
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline');
    if (row.metadata.eTag) reply.header('etag', row.metadata.eTag);
    if (req.method === 'HEAD') return reply.send();
    return reply.send(file.open());
  }

  async function upload(req: FastifyRequest, upsert: boolean) {
    const claims = await getCallerClaims(ctx, req);
    const { bucket, name } = splitBucketAndName(getWildcard(req));
    await checkBucketExists(ctx, bucket);
    // No policy lets anonymous visitors write; refusing here saves decoding their image.
    if (claims.role === 'anon')
      throw new StorageError(403, 'Unauthorized', 'new row violates row-level security policy');
    const { file, cacheControl } = await readUploadBody(req);
    if (file.length > MAX_UPLOAD_BYTES) throw tooLarge();
    const image = await reencodeImage(file);
    const version = crypto.randomUUID();
    const metadata = {
      eTag: `"${crypto.createHash('md5').update(image.data).digest('hex')}"`,
      size: image.data.length,
      mimetype: image.mimetype,
      cacheControl: cacheControl ?? '3600',
      lastModified: new Date().toISOString(),
      contentLength: image.data.length,
      httpStatusCode: 200,
      width: image.width,
      height: image.height,
    };
    const tmp = await store.writeTemp(image.data);
    let replaced: string | undefined;
    let id: string;
    try {
      id = await ctx.db.transaction(async (tx) => {
        if (claims.role === 'authenticated' && claims.sub)
          await checkQuota(tx, claims.sub, bucket, name, image.data.length);
        if (upsert) {
          const old = await tx.query<{ version: string | null }>(
            'select version from storage.objects where bucket_id = $1 and name = $2 for update',
            [bucket, name],
          );
          replaced = old.rows[0]?.version ?? undefined;
        }
        await actAsCaller(tx, claims);
        const insert = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
          values ($1, $2, $3, $4, $5, $6)`;
        const r = await tx.query<{ id: string }>(
          upsert
            ? `${insert} on conflict (bucket_id, name) do update set owner = excluded.owner,
                 owner_id = excluded.owner_id, metadata = excluded.metadata, version = excluded.version,
                 updated_at = now(), last_accessed_at = now() returning id`
            : `${insert} returning id`,
          [bucket, name, claims.sub ?? null, claims.sub ?? null, JSON.stringify(metadata), version],
        );
        // The file is put in place inside the transaction: if that fails the row is rolled back.
        await store.place(tmp, bucket, version);
        return r.rows[0]!.id;
      });
    } catch (e) {
      await store.discard(tmp);
      await store.remove(bucket, version).catch(() => {});
      throw e;
    }
    if (replaced && replaced !== version)
      await store
        .remove(bucket, replaced)
        .catch((e: unknown) => req.log.warn({ err: e }, 'old file not removed'));
    return { Id: id, Key: `${bucket}/${name}` };
  }

  app.post('/object/*', (req) => upload(req, req.headers['x-upsert'] === 'true'));
  app.put('/object/*', (req) => upload(req, true));

  const download = async (req: FastifyRequest, reply: FastifyReply) => {
    const claims = await getCallerClaims(ctx, req);
    const { bucket, name } = splitBucketAndName(getWildcard(req));
    const row = await findVisibleObject(ctx, claims, bucket, name);
    if (!row) throw notFound();
    return sendObject(req, reply, bucket, row);
  };
  app.get('/object/authenticated/*', download);
  app.get('/object/*', download);
  app.get('/object/info/*', async (req) => {
    const claims = await getCallerClaims(ctx, req);
    const { bucket, name } = splitBucketAndName(getWildcard(req));
    const row = await findVisibleObject(ctx, claims, bucket, name);
    if (!row) throw notFound();
    return {
      id: row.id,
      name: row.name,
      bucket_id: bucket,
      version: row.version,
      size: row.metadata.size ?? null,
      content_type: row.metadata.mimetype ?? null,
      cache_control: row.metadata.cacheControl ? `max-age=${row.metadata.cacheControl}` : null,
      etag: row.metadata.eTag ?? null,
      metadata: {},
      last_modified: toIso(row.updated_at),
      created_at: toIso(row.created_at),
      updated_at: toIso(row.updated_at),
    };
  });

  // Buckets here are never public: a public URL finds nothing.
  app.get('/object/public/*', async () => {
    throw notFound('Bucket not found or not public');
  });

  app.post('/object/sign/*', async (req) => {
    const claims = await getCallerClaims(ctx, req);
    const wildcard = getWildcard(req);
    const body = parseJsonBody(req);
    const expiresIn = parseExpiresIn(body['expiresIn']);
    if (!wildcard.includes('/')) {
      const bucket = checkBucketId(wildcard);
      const paths = body['paths'];
      if (!Array.isArray(paths) || paths.length === 0 || paths.length > 100)
        throw badRequest('paths must be an array of 1 to 100 object names');
      const out = [];
      for (const p of paths) {
        if (typeof p !== 'string') throw badRequest('paths must hold strings');
        const name = checkObjectName(p);
        const row = await findVisibleObject(ctx, claims, bucket, name);
        out.push(
          row?.version
            ? {
                path: name,
                error: null,
                signedURL: await makeSignedPath(bucket, name, row.version, expiresIn, claims),
              }
            : {
                path: name,
                error: 'Either the requested object does not exist or you do not have access to it',
                signedURL: null,
              },
        );
      }
      return out;
    }
    const { bucket, name } = splitBucketAndName(wildcard);
    const row = await findVisibleObject(ctx, claims, bucket, name);
    if (!row?.version) throw notFound();
    return { signedURL: await makeSignedPath(bucket, name, row.version, expiresIn, claims) };
  });

  async function makeSignedPath(
    bucket: string,
    name: string,
    version: string,
    expiresIn: number,
    claims: JwtClaims,
  ) {
    const member = MEMBER_MEDIA_BUCKETS.has(bucket);
    const token = await signer.sign(
      { bucket, name, version, member: member && claims.role === 'authenticated' ? claims.sub : undefined },
      member ? Math.min(expiresIn, MAX_MEMBER_MEDIA_URL_SECONDS) : expiresIn,
    );
    // storage-js applies encodeURI to the whole URL, so the key goes out unencoded as Supabase does.
    return `/object/sign/${bucket}/${name}?token=${token}`;
  }

  app.get('/object/sign/*', async (req, reply) => {
    const { bucket, name } = splitBucketAndName(getWildcard(req));
    const token = (req.query as Record<string, unknown>)['token'];
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096)
      throw badRequest('Missing token', 'InvalidSignature');
    const claims = await signer.findClaims(token, bucket, name);
    if (!claims) throw badRequest('Invalid or expired signature', 'InvalidSignature');
    // The token is the authority here; it names the exact version, so a removed or replaced file is gone.
    const r = await ctx.db.query<ObjectRow>(
      `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2 and version = $3`,
      [bucket, name, claims.version],
    );
    const row = r.rows[0];
    if (!row) throw notFound();
    // A member's URL works only while that member may still see the file (a block or unmatch since ends it).
    if (
      claims.member &&
      !(await findVisibleObject(ctx, { role: 'authenticated', sub: claims.member }, bucket, name))
    )
      throw notFound();
    return sendObject(req, reply, bucket, row);
  });

  app.delete('/object/*', async (req) => {
    const claims = await getCallerClaims(ctx, req);
    const wildcard = getWildcard(req);
    let bucket: string;
    let names: string[];
    if (wildcard.includes('/')) {
      const parts = splitBucketAndName(wildcard);
      bucket = parts.bucket;
      names = [parts.name];
    } else {
      bucket = checkBucketId(wildcard);
      const prefixes = parseJsonBody(req)['prefixes'];
      if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.length > 1000)
        throw badRequest('prefixes must be an array of 1 to 1000 object names');
      names = prefixes.map((p) => {
        if (typeof p !== 'string') throw badRequest('prefixes must hold strings');
        return checkObjectName(p);
      });
    }
    const removed = await withCaller(ctx.db, claims, async (tx) => {
      const r = await tx.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
        [bucket, names],
      );
      return r.rows;
    });
    for (const row of removed)
      if (row.version)
        await store
          .remove(bucket, row.version)
          .catch((e: unknown) => req.log.warn({ err: e }, 'file not removed'));
    if (wildcard.includes('/')) {
      if (removed.length === 0) throw notFound();
      return { message: 'Successfully deleted' };
    }
    return removed.map((row) => toPublicObject(bucket, row));
  });

  app.post('/object/list/*', async (req) => {
    const claims = await getCallerClaims(ctx, req);
    const bucket = checkBucketId(getWildcard(req));
    const body = parseJsonBody(req);
    const prefix = typeof body['prefix'] === 'string' ? body['prefix'].replace(/^\/+|\/+$/g, '') : '';
    if (prefix !== '') checkObjectName(prefix);
    const search = typeof body['search'] === 'string' ? body['search'] : '';
    const limit = Number.isInteger(body['limit'])
      ? Math.min(Math.max(body['limit'] as number, 1), 1000)
      : 100;
    const offset = Number.isInteger(body['offset']) ? Math.max(body['offset'] as number, 0) : 0;
    const sortBy = body['sortBy'] as { order?: unknown } | undefined;
    const descending = typeof sortBy?.order === 'string' && sortBy.order.toLowerCase() === 'desc';
    const base = prefix === '' ? '' : `${prefix}/`;
    const pattern = `${escapeLike(base)}${escapeLike(search)}%`;
    const rows = await withCaller(
      ctx.db,
      claims,
      async (tx) => {
        const r = await tx.query<ObjectRow>(
          `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name like $2 escape '\\'
         order by name limit ${LIST_SCAN_LIMIT}`,
          [bucket, pattern],
        );
        return r.rows;
      },
      { read: 'one statement' },
    );
    // One level below the prefix, like Supabase: deeper keys show as a folder entry with a null id.
    const entries = new Map<string, ReturnType<typeof toListEntry>>();
    for (const row of rows) {
      const rest = row.name.slice(base.length);
      const slash = rest.indexOf('/');
      const entryName = slash < 0 ? rest : rest.slice(0, slash);
      if (!entries.has(entryName))
        entries.set(entryName, slash < 0 ? toListEntry(entryName, row) : folder(entryName));
    }
    const sorted = [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (descending) sorted.reverse();
    return sorted.slice(offset, offset + limit);
  });
}

function toListEntry(name: string, row: ObjectRow) {
  return {
    name,
    id: row.id as string | null,
    updated_at: toIso(row.updated_at) as string | null,
    created_at: toIso(row.created_at) as string | null,
    last_accessed_at: toIso(row.last_accessed_at) as string | null,
    metadata: row.metadata as ObjectMetadata | null,
  };
}

function folder(name: string): ReturnType<typeof toListEntry> {
  return { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Per-member limits, checked under a per-member lock so two parallel uploads cannot both squeeze in. */
async function checkQuota(tx: Queryable, userId: string, bucket: string, name: string, size: number) {
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`storage-quota:${userId}`]);
  const r = await tx.query<{ files: string; bytes: string }>(
    `select count(*)::int8 as files, coalesce(sum((metadata->>'size')::int8), 0)::int8 as bytes
       from storage.objects where owner = $1 and not (bucket_id = $2 and name = $3)`,
    [userId, bucket, name],
  );
  const files = Number(r.rows[0]?.files ?? 0);
  const bytes = Number(r.rows[0]?.bytes ?? 0);
  if (files + 1 > MAX_FILES_PER_MEMBER || bytes + size > MAX_BYTES_PER_MEMBER)
    throw new StorageError(
      403,
      'quota_exceeded',
      `Storage quota reached: at most ${MAX_FILES_PER_MEMBER} files and ${MAX_BYTES_PER_MEMBER / (1024 * 1024)} MB per member`,
    );
}
