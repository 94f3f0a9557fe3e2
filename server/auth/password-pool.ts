// A small pool of worker threads for argon2 (see decision 0029). @node-rs/argon2's async functions
// hold the calling thread for 1-3.5 ms at 19 MiB before the hash moves to libuv's thread pool, where
// hashes then queue in front of file, DNS and WebCrypto work. Here the whole hash runs on a dedicated
// thread; the event loop only posts a message. The threads run at a lower priority than the event loop
// (decision 0078).
import os from 'node:os';
import { Worker } from 'node:worker_threads';

export interface Argon2Options {
  algorithm: number;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

type Task =
  | { kind: 'hash'; password: string; options: Argon2Options }
  | { kind: 'verify'; hash: string; password: string };

interface Job {
  id: number;
  task: Task;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type Reply = { id: number; result: unknown } | { id: number; error: string };

const WORKER_URL = new URL('./password-worker.mjs', import.meta.url);

/** Hashing is CPU-bound: one thread per core (capped), more would only contend and hold more memory. */
export function getDefaultPoolSize(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 8));
}

export class PasswordPool {
  private readonly workers = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 0;

  constructor(readonly size: number = getDefaultPoolSize()) {
    if (!Number.isInteger(size) || size < 1) throw new Error('password pool size must be a positive integer');
  }

  hash(password: string, options: Argon2Options): Promise<string> {
    return this.run({ kind: 'hash', password, options }) as Promise<string>;
  }

  /** Resolves false for a wrong password; rejects when the stored hash cannot be read. */
  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ kind: 'verify', hash, password }) as Promise<boolean>;
  }

  /** Jobs waiting for a free thread (not counting the ones running). */
  get queued(): number {
    return this.queue.length;
  }

  /** Stops every thread; jobs still running or queued are rejected. */
  async close(): Promise<void> {
    const error = new Error('password pool closed');
    for (const job of this.queue.splice(0)) job.reject(error);
    const all = [...this.workers];
    for (const w of all) this.drop(w, error);
    await Promise.all(all.map((w) => w.terminate()));
  }

  private run(task: Task): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, resolve, reject };
      const worker = this.takeWorker();
      if (worker) this.start(worker, job);
      else this.queue.push(job);
    });
  }

  private takeWorker(): Worker | undefined {
    const idle = this.idle.pop();
    if (idle) return idle;
    return this.workers.size < this.size ? this.spawn() : undefined;
  }

  private spawn(): Worker {
    // Plain Node, without the process's own flags: the server runs under tsx, and a worker inheriting them
    // loads this plain JavaScript file through tsx's loader too, which made a new thread's first hash take
    // about 165 ms instead of 48 (threads start on demand: the first sign-ins after a start waited for it).
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    worker.on('message', (reply: Reply) => this.onReply(worker, reply));
    worker.on('error', (e) => this.onFailure(worker, e));
    worker.on('exit', (code) => this.onFailure(worker, new Error(`password worker exited (code ${code})`)));
    this.workers.add(worker);
    return worker;
  }

  private start(worker: Worker, job: Job): void {
    this.running.set(worker, job);
    // A thread with work keeps the process alive (a script awaiting a hash must not exit); an idle one does not.
    worker.ref();
    worker.postMessage({ id: job.id, ...job.task });
  }

  private onReply(worker: Worker, reply: Reply): void {
    const job = this.running.get(worker);
    if (!job || job.id !== reply.id) return;
    this.running.delete(worker);
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.result);
    const next = this.queue.shift();
    if (next) {
      this.start(worker, next);
    } else {
      worker.unref();
      this.idle.push(worker);
    }
  }

  /** A thread that failed or exited is dropped with its job; queued work moves to a fresh thread. */
  private onFailure(worker: Worker, error: Error): void {
    if (!this.workers.has(worker)) return;
    this.drop(worker, error);
    void worker.terminate();
    const next = this.queue.shift();
    if (next) {
      const fresh = this.takeWorker();
      if (fresh) this.start(fresh, next);
      else this.queue.unshift(next);
    }
  }

  private drop(worker: Worker, error: Error): void {
    this.workers.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    const job = this.running.get(worker);
    this.running.delete(worker);
    job?.reject(error);
  }
}
