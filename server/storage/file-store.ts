// Stored files on disk under `<dataDir>/storage/<bucket>/`, named by the server (the object's version id).
// Writes go to a temp file that is fsynced and renamed, so a reader never sees half a file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { StorageError } from './storage-error.ts';

const VERSION = /^[0-9a-f-]{36}$/;

export class FileStore {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'storage');
  }

  /** Where the file of an object version lives; the version is a server-made UUID. */
  getFilePath(bucket: string, version: string): string {
    if (!VERSION.test(version)) throw new Error(`invalid object version ${version}`);
    return path.join(this.root, bucket, version.slice(0, 2), version);
  }

  /** Writes data to a new temp file and returns its path; disk errors become a clear 503/507. */
  async writeTemp(data: Buffer): Promise<string> {
    const dir = path.join(this.root, '.tmp');
    const tmp = path.join(dir, `${crypto.randomUUID()}.part`);
    try {
      await fsp.mkdir(dir, { recursive: true });
      const handle = await fsp.open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return tmp;
    } catch (e) {
      await fsp.rm(tmp, { force: true }).catch(() => {});
      throw toDiskError(e);
    }
  }

  /** Moves a temp file into place (atomic within one file system). */
  async place(tmp: string, bucket: string, version: string): Promise<void> {
    const target = this.getFilePath(bucket, version);
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (e) {
      throw toDiskError(e);
    }
  }

  async discard(file: string): Promise<void> {
    await fsp.rm(file, { force: true }).catch(() => {});
  }

  /** Removes an object version's file; a file already gone is fine. */
  async remove(bucket: string, version: string): Promise<void> {
    await fsp.rm(this.getFilePath(bucket, version), { force: true });
  }

  /** Finds a stored file (size, and a way to open it), or undefined when it is missing. */
  async findFile(
    bucket: string,
    version: string,
  ): Promise<{ size: number; open(): fs.ReadStream } | undefined> {
    const file = this.getFilePath(bucket, version);
    try {
      const stat = await fsp.stat(file);
      return { size: stat.size, open: () => fs.createReadStream(file) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }
}

function toDiskError(e: unknown): StorageError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new StorageError(507, 'insufficient_storage', 'The server has no room to store this file');
  return new StorageError(
    503,
    'storage_unavailable',
    'The server cannot store files right now; try again later',
  );
}
