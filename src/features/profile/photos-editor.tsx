// The member's photos as the grid dating apps use: every slot up to the limit, the photos first (the main one
// marked), then an "Add photo" tile (online only) and empty slots. Each photo can become the main one, move a
// place earlier or later, or be removed (after a yes: the file is deleted too).
import { ChevronLeft, ChevronRight, Plus, Star, X } from 'lucide-react';
import { useState } from 'react';
import { isOnline, useOnline } from '../../data/network.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { MemberPhoto } from './member-photo.tsx';
import { removePhotoFile, uploadPhoto } from './profile-api.ts';
import { MAX_PHOTOS } from './profile-rules.ts';

/** A round button laid over a photo: readable on any photo, 36 px to tap. */
const OVER_PHOTO =
  'flex size-9 items-center justify-center rounded-full bg-black/60 text-white shadow hover:bg-black/75 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none';

export function PhotosEditor({
  me,
  photos,
  onChange,
}: {
  me: string;
  photos: string[];
  onChange: (p: string[]) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [removing, setRemoving] = useState<number>();
  const online = useOnline();
  async function add(files: FileList | null) {
    if (!files?.length) return;
    setError(undefined);
    if (!isOnline()) return setError('Photos upload only when you are online.');
    const room = MAX_PHOTOS - photos.length;
    if (room <= 0) return setError(`You can have at most ${MAX_PHOTOS} photos.`);
    setBusy(true);
    try {
      const keys: string[] = [];
      for (const f of [...files].slice(0, room)) keys.push(await uploadPhoto(me, f));
      await onChange([...photos, ...keys]);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not upload this photo. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  async function move(i: number, to: number) {
    const next = [...photos];
    const [p] = next.splice(i, 1);
    next.splice(to, 0, p!);
    await onChange(next);
  }
  async function remove(i: number) {
    setRemoving(undefined);
    const key = photos[i]!;
    await onChange(photos.filter((_, j) => j !== i));
    // Offline the file stays on the server, unused; the profile no longer points at it.
    await removePhotoFile(key).catch(() => undefined);
  }
  const empty = Math.max(0, MAX_PHOTOS - photos.length - 1);
  return (
    <section aria-labelledby="photos-heading" className="card space-y-3">
      <h2 id="photos-heading" className="text-xl font-semibold">
        Photos ({photos.length}/{MAX_PHOTOS})
      </h2>
      <p className="text-sm text-muted">Your main photo is the first one people see.</p>
      <ul className="grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-6" aria-label="Your photos">
        {photos.map((p, i) => (
          <li key={p} className="relative aspect-[3/4] overflow-hidden rounded-lg bg-subtle">
            <MemberPhoto
              path={p}
              alt={i === 0 ? 'Your main photo' : `Your photo ${i + 1}`}
              className="absolute inset-0 size-full object-cover"
            />
            <div className="absolute inset-x-1 top-1 flex items-start justify-between">
              {i === 0 ? (
                <span />
              ) : (
                <button
                  type="button"
                  className={OVER_PHOTO}
                  aria-label={`Make photo ${i + 1} your main photo`}
                  title="Make main"
                  onClick={() => void move(i, 0)}
                >
                  <Star aria-hidden="true" className="size-4" />
                </button>
              )}
              <button
                type="button"
                className={OVER_PHOTO}
                aria-label={`Remove photo ${i + 1}`}
                title="Remove"
                onClick={() => setRemoving(i)}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </div>
            <div className="absolute inset-x-1 bottom-1 flex items-end justify-between">
              {/* The main photo cannot move earlier: its place says what it is. */}
              {i === 0 ? (
                <span className="inline-flex items-center gap-0.5 self-end rounded-full bg-primary px-1.5 py-0.5 text-[11px] font-semibold text-primary-fg shadow">
                  <Star aria-hidden="true" className="size-3 fill-current" />
                  Main
                </span>
              ) : (
                <button
                  type="button"
                  className={OVER_PHOTO}
                  aria-label={`Move photo ${i + 1} earlier`}
                  title="Move earlier"
                  onClick={() => void move(i, i - 1)}
                >
                  <ChevronLeft aria-hidden="true" className="size-4" />
                </button>
              )}
              {i < photos.length - 1 && (
                <button
                  type="button"
                  className={OVER_PHOTO}
                  aria-label={`Move photo ${i + 1} later`}
                  title="Move later"
                  onClick={() => void move(i, i + 1)}
                >
                  <ChevronRight aria-hidden="true" className="size-4" />
                </button>
              )}
            </div>
          </li>
        ))}
        {photos.length < MAX_PHOTOS && (
          <li className="aspect-[3/4]">
            <label
              className={`flex size-full flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed border-border text-sm font-semibold focus-within:ring-2 focus-within:ring-primary ${
                online && !busy
                  ? 'cursor-pointer text-primary hover:bg-subtle'
                  : 'cursor-not-allowed text-muted'
              }`}
            >
              <Plus aria-hidden="true" className="size-6" />
              {busy ? 'Uploading...' : 'Add photos'}
              <input
                type="file"
                accept="image/jpeg,image/png,image/webp"
                multiple
                className="sr-only"
                disabled={busy || !online}
                onChange={(e) => {
                  void add(e.target.files);
                  e.target.value = '';
                }}
              />
            </label>
          </li>
        )}
        {Array.from({ length: empty }, (_, i) => (
          <li
            key={`empty-${i}`}
            aria-hidden="true"
            className="aspect-[3/4] rounded-lg border-2 border-dashed border-border/60"
          />
        ))}
      </ul>
      {!online && (
        <p className="text-sm text-muted">
          You are offline: new photos upload only when you are online. Reordering and removing photos, and
          every other change, are kept on this device until then.
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {removing !== undefined && (
        <ConfirmDialog
          title={removing === 0 ? 'Remove your main photo?' : `Remove photo ${removing + 1}?`}
          text={
            removing === 0 && photos.length > 1
              ? 'It is deleted from your profile; your next photo becomes your main one.'
              : 'It is deleted from your profile.'
          }
          confirmLabel="Remove"
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(undefined)}
        />
      )}
    </section>
  );
}
