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

/**
 * Jobs a thread holds at once: the one it runs and the next, already in its message queue, so it goes on
 * without waiting for the event loop to read its answer and post more. Under load the event loop is often in
 * the middle of other work (a PGlite statement, a response) when a hash ends; with one job per thread, the
 * thread sat idle until then.
 */
const JOBS_PER_THREAD = 2;

/** Hashing is CPU-bound: one thread per core (capped), more would only contend and hold more memory. */
export function getDefaultPoolSize(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 8));
}

export class PasswordPool {
  /** Every thread, with its posted jobs in order: the first is running, the rest wait in its message queue. */
  private readonly posted = new Map<Worker, Job[]>();
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

  /** Jobs waiting for a thread (not counting the ones running, nor the one each busy thread holds next). */
  get queued(): number {
    return this.queue.length;
  }

  /** Stops every thread; jobs still running or queued are rejected. */
  async close(): Promise<void> {
    const error = new Error('password pool closed');
    for (const job of this.queue.splice(0)) job.reject(error);
    const all = [...this.posted.keys()];
    for (const w of all) this.drop(w, error);
    await Promise.all(all.map((w) => w.terminate()));
  }

  private run(task: Task): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, resolve, reject };
      const worker = this.takeWorker();
      if (worker) this.post(worker, job);
      else this.queue.push(job);
    });
  }

  /**
   * A thread for a new job: an idle one, else a new one while under size, else a busy one that holds no next
   * job yet (the one whose current job began first, so likely the first to finish).
   */
  private takeWorker(): Worker | undefined {
    for (const [worker, jobs] of this.posted) if (jobs.length === 0) return worker;
    if (this.posted.size < this.size) return this.spawn();
    for (const [worker, jobs] of this.posted) if (jobs.length < JOBS_PER_THREAD) return worker;
    return undefined;
  }

  private spawn(): Worker {
    // Plain Node, without the process's own flags: the server runs under tsx, and a worker inheriting them
    // loads this plain JavaScript file through tsx's loader too, which made a new thread's first hash take
    // about 165 ms instead of 48 (threads start on demand: the first sign-ins after a start waited for it).
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    worker.on('message', (reply: Reply) => this.onReply(worker, reply));
    worker.on('error', (e) => this.onFailure(worker, e));
    worker.on('exit', (code) => this.onFailure(worker, new Error(`password worker exited (code ${code})`)));
    this.posted.set(worker, []);
    return worker;
  }

  private post(worker: Worker, job: Job): void {
    const jobs = this.posted.get(worker) ?? [];
    if (jobs.length === 0) this.markBegun(worker, jobs);
    jobs.push(job);
    // A thread with work keeps the process alive (a script awaiting a hash must not exit); an idle one does not.
    worker.ref();
    worker.postMessage({ id: job.id, ...job.task });
  }

  /** Threads are kept in the order their current job began, so takeWorker meets the oldest busy one first. */
  private markBegun(worker: Worker, jobs: Job[]): void {
    this.posted.delete(worker);
    this.posted.set(worker, jobs);
  }

  private onReply(worker: Worker, reply: Reply): void {
    const jobs = this.posted.get(worker);
    const job = jobs?.[0];
    if (!jobs || !job || job.id !== reply.id) return;
    jobs.shift();
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.result);
    // The thread has already begun the job it held next, if any; it gets the next waiting one to hold.
    if (jobs.length > 0) this.markBegun(worker, jobs);
    const next = this.queue.shift();
    if (next) this.post(worker, next);
    else if (jobs.length === 0) worker.unref();
  }

  /** A thread that failed or exited is dropped with its jobs; queued work moves to a fresh thread. */
  private onFailure(worker: Worker, error: Error): void {
    if (!this.posted.has(worker)) return;
    this.drop(worker, error);
    void worker.terminate();
    for (;;) {
      const fresh = this.queue.length > 0 ? this.takeWorker() : undefined;
      const next = fresh && this.queue.shift();
      if (!fresh || !next) break;
      this.post(fresh, next);
    }
  }

  private drop(worker: Worker, error: Error): void {
    const jobs = this.posted.get(worker) ?? [];
    this.posted.delete(worker);
    for (const job of jobs) job.reject(error);
  }
}
