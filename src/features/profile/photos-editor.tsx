// The member's photos: add (online only), reorder, make main, remove.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { isOnline, useOnline } from '../../data/network.ts';
import { MemberPhoto } from './member-photo.tsx';
import { removePhotoFile, uploadPhoto } from './profile-api.ts';
import { MAX_PHOTOS } from './profile-rules.ts';

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
    const key = photos[i]!;
    await onChange(photos.filter((_, j) => j !== i));
    // Offline the file stays on the server, unused; the profile no longer points at it.
    await removePhotoFile(key).catch(() => undefined);
  }
  return (
    <section aria-labelledby="photos-heading" className="card space-y-3">
      <h2 id="photos-heading" className="text-xl font-semibold">
        Photos ({photos.length}/{MAX_PHOTOS})
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {photos.map((p, i) => (
          <li key={p} className="space-y-1">
            <MemberPhoto
              path={p}
              alt={i === 0 ? 'Your main photo' : `Your photo ${i + 1}`}
              className="aspect-square w-full rounded-lg object-cover"
            />
            <div className="flex flex-wrap gap-1 text-xs">
              {i === 0 ? (
                <span className="font-semibold">Main photo</span>
              ) : (
                <button type="button" className="btn-ghost px-1" onClick={() => void move(i, 0)}>
                  Make main
                </button>
              )}
              {i > 0 && (
                <button
                  type="button"
                  className="btn-ghost px-1"
                  aria-label={`Move photo ${i + 1} earlier`}
                  onClick={() => void move(i, i - 1)}
                >
                  <ChevronLeft aria-hidden="true" className="size-4" />
                </button>
              )}
              {i < photos.length - 1 && (
                <button
                  type="button"
                  className="btn-ghost px-1"
                  aria-label={`Move photo ${i + 1} later`}
                  onClick={() => void move(i, i + 1)}
                >
                  <ChevronRight aria-hidden="true" className="size-4" />
                </button>
              )}
              <button
                type="button"
                className="btn-ghost px-1"
                aria-label={`Remove photo ${i + 1}`}
                onClick={() => void remove(i)}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {!online && (
        <p className="text-sm text-muted">
          You are offline: new photos upload only when you are online. Reordering and removing photos, and
          every other change, are kept on this device until then.
        </p>
      )}
      {photos.length < MAX_PHOTOS && (
        <label
          className={`btn-secondary inline-block ${online ? 'cursor-pointer' : 'cursor-not-allowed opacity-60'}`}
        >
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
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}
