// Ids derived from natural keys, so two devices creating the same logical row (offline) land on one row.
// Pure and synchronous: the same code runs in the browser, Node and Deno.

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Domain tags keep an interaction, a conversation and a block of the same pair on different ids.
const TAG_INTERACTION = 1;
const TAG_CONVERSATION = 2;
const TAG_BLOCK = 3;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** SHA-256 of bytes (FIPS 180-4); small inputs only, which is all ids need. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

/** The 16 bytes of a UUID; throws on anything else, so a typo never yields a plausible id. */
export function getUuidBytes(uuid: string): Uint8Array {
  if (!UUID_RE.test(uuid)) throw new Error(`not a UUID: ${uuid}`);
  const hex = uuid.replace(/-/g, '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** First 16 bytes of SHA-256(bytes) as an RFC 9562 UUIDv8 (version nibble 8, variant 10xx). */
function formatUuidV8(bytes: Uint8Array): string {
  const d = sha256(bytes).slice(0, 16);
  d[6] = (d[6]! & 0x0f) | 0x80;
  d[8] = (d[8]! & 0x3f) | 0x80;
  const hex = Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Whether a string is a UUID in the 8-4-4-4-12 hex form. */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * The id of a round: the same as SQL's public.game_round_id (decision 11): sha256(session uuid bytes ||
 * round_number as 4-byte big-endian), so the server's default and every device agree.
 */
export function getGameRoundId(sessionId: string, roundNumber: number): string {
  if (!Number.isInteger(roundNumber) || roundNumber < -(2 ** 31) || roundNumber >= 2 ** 31)
    throw new Error(`round number out of range: ${roundNumber}`);
  const n = new Uint8Array(4);
  new DataView(n.buffer).setInt32(0, roundNumber);
  return formatUuidV8(concatBytes(getUuidBytes(sessionId), n));
}

/** The id of the member's like or skip of a target: one row per (user_id, target_id), as the table's unique key. */
export function getInteractionId(userId: string, targetId: string): string {
  return formatUuidV8(
    concatBytes(Uint8Array.of(TAG_INTERACTION), getUuidBytes(userId), getUuidBytes(targetId)),
  );
}

/**
 * The id of a member's block of another, as this device writes it: a second tap (or a block made on two of the
 * member's devices) lands on one row; the server's unique (blocker_id, blocked_id) key settles the rest.
 */
export function getBlockId(blockerId: string, blockedId: string): string {
  return formatUuidV8(
    concatBytes(Uint8Array.of(TAG_BLOCK), getUuidBytes(blockerId), getUuidBytes(blockedId)),
  );
}

/** The id of the conversation of a pair, whichever member (or device) creates it. */
export function getConversationId(memberA: string, memberB: string): string {
  const [first, second] = [memberA.toLowerCase(), memberB.toLowerCase()].sort();
  return formatUuidV8(
    concatBytes(Uint8Array.of(TAG_CONVERSATION), getUuidBytes(first!), getUuidBytes(second!)),
  );
}
