// Upload limits for the self-contained storage; chosen for member photos and chat pictures.

/** Largest request body accepted for an upload (the encoded image as sent, before re-encoding). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Decoded pixels allowed in one image: a 16000x16000 "pixel bomb" (256 MP) is refused. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Longest side of a stored image; larger images are scaled down. */
export const MAX_STORED_DIMENSION = 2048;
/** Per-member quota over all buckets. */
export const MAX_FILES_PER_MEMBER = 50;
export const MAX_BYTES_PER_MEMBER = 200 * 1024 * 1024;
/** Longest object name (bytes, UTF-8) and path segment accepted. */
export const MAX_NAME_BYTES = 1024;
export const MAX_SEGMENT_BYTES = 255;
/** Signed URLs live at most a week. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 3600;
/**
 * Except members' photos and chat media: their URLs live at most 10 minutes (a longer wish is shortened), so
 * one copied before a block or an unmatch soon stops working (each use also checks the asker still sees it).
 */
export const MEMBER_MEDIA_BUCKETS: ReadonlySet<string> = new Set(['profile-photos', 'chat-media']);
export const MAX_MEMBER_MEDIA_URL_SECONDS = 600;
