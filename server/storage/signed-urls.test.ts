// Signed object URLs: a URL asked for N seconds works for at least N seconds, whenever in a second it was
// signed, and not much longer; it names one object and its token cannot be altered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadOrCreateSigner, type SignedUrlSigner } from './signed-urls.ts';

const OBJECT = { bucket: 'profile-photos', name: 'a/photo.jpg', version: 'v1' };
let dir: string;
let signer: SignedUrlSigner;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-signed-urls-'));
  signer = loadOrCreateSigner(dir);
  // Only the clock: the signature's own work stays asynchronous.
  vi.useFakeTimers({ toFake: ['Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = (ms: number) => vi.setSystemTime(new Date(ms));
const check = () => signer.findClaims(token, OBJECT.bucket, OBJECT.name);
let token: string;

describe('signed URLs', () => {
  it('works for the whole time asked, when signed at the very end of a second', async () => {
    at(1_700_000_000_999);
    token = await signer.sign(OBJECT, 1);
    at(1_700_000_001_900);
    expect(await check()).toEqual({ version: 'v1' });
    at(1_700_000_002_000);
    expect(await check()).toBeUndefined();
  });

  it('works for the time asked and less than a second more, when signed at the start of a second', async () => {
    at(1_700_000_000_001);
    token = await signer.sign({ ...OBJECT, member: 'm1' }, 60);
    at(1_700_000_060_000);
    expect(await check()).toEqual({ version: 'v1', member: 'm1' });
    at(1_700_000_061_000);
    expect(await check()).toBeUndefined();
  });

  it('names one object, and an altered token is refused', async () => {
    at(1_700_000_000_500);
    token = await signer.sign(OBJECT, 60);
    expect(await signer.findClaims(token, OBJECT.bucket, 'a/other.jpg')).toBeUndefined();
    expect(await signer.findClaims(token, 'other-bucket', OBJECT.name)).toBeUndefined();
    // The signature's first character: all six of its bits count (the last one's may be padding).
    const cut = token.lastIndexOf('.') + 1;
    const altered = `${token.slice(0, cut)}${token[cut] === 'A' ? 'B' : 'A'}${token.slice(cut + 1)}`;
    expect(await signer.findClaims(altered, OBJECT.bucket, OBJECT.name)).toBeUndefined();
    expect(await check()).toEqual({ version: 'v1' });
  });

  it('keeps its key in the data folder, so URLs outlive a restart', async () => {
    at(1_700_000_000_500);
    token = await signer.sign(OBJECT, 60);
    signer = loadOrCreateSigner(dir);
    expect(await check()).toEqual({ version: 'v1' });
  });
});
