// Checks bucket ids and object keys from URLs: the key is only a lookup name, never a disk path.
import { MAX_NAME_BYTES, MAX_SEGMENT_BYTES } from './limits.ts';
import { badRequest } from './storage-error.ts';

const BUCKET_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;
// Control characters and backslashes confuse logs and tools; '?', '#' and '%' would be read as URL syntax
// when storage-js builds a signed URL from the key.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f\\?#%]/;

export function checkBucketId(id: string): string {
  if (!BUCKET_ID.test(id)) throw badRequest('Invalid bucket name', 'InvalidBucketName');
  return id;
}

/** Returns the key unchanged when it is a clean relative name; throws 400 otherwise. */
export function checkObjectName(name: string): string {
  if (name.length === 0) throw badRequest('Invalid key: the object name is empty', 'InvalidKey');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES)
    throw badRequest(`Invalid key: longer than ${MAX_NAME_BYTES} bytes`, 'InvalidKey');
  if (FORBIDDEN_CHARS.test(name)) throw badRequest('Invalid key: forbidden character', 'InvalidKey');
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      throw badRequest('Invalid key: empty, "." or ".." path segment', 'InvalidKey');
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES)
      throw badRequest(`Invalid key: a segment is longer than ${MAX_SEGMENT_BYTES} bytes`, 'InvalidKey');
  }
  return name;
}

/** Splits "bucket/some/key" from a route wildcard into its checked parts. */
export function splitBucketAndName(wildcard: string): { bucket: string; name: string } {
  const slash = wildcard.indexOf('/');
  if (slash < 0) throw badRequest('Invalid key: missing object name', 'InvalidKey');
  return {
    bucket: checkBucketId(wildcard.slice(0, slash)),
    name: checkObjectName(wildcard.slice(slash + 1)),
  };
}
