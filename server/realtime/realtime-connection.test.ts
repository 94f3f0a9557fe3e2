// One connection over a fake socket and fake clock: token expiry far in the future, rate limit, bad frames.
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { RealtimeConnection } from './realtime-connection.ts';
import { RealtimeHub } from './realtime-hub.ts';

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  send(frame: string | Buffer) {
    this.sent.push(typeof frame === 'string' ? JSON.parse(frame) : frame);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate() {}
  /** Delivers a client frame the way ws does. */
  receive(message: unknown[]) {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

const DAY = 24 * 3600 * 1000;

function makeConnection(
  claims: JwtClaims,
  verifyToken: (token: string) => Promise<JwtClaims> = async () => claims,
  hub = new RealtimeHub(),
  db: unknown = {},
) {
  const socket = new FakeSocket();
  const ctx = {
    verifyToken,
    log: { warn: () => {}, debug: () => {} },
    db,
  } as unknown as AppContext;
  new RealtimeConnection(socket as unknown as WebSocket, hub, ctx, claims, '2.0.0');
  return socket;
}

const events = (socket: FakeSocket) => socket.sent.map((m) => (m as unknown[])[3]);

describe('realtime connection', () => {
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a channel whose token expires in a month past the longest timer, and closes it at expiry', async () => {
    const exp = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    const socket = makeConnection({ role: 'anon', exp });
    socket.receive(['1', '1', 'realtime:public:x', 'phx_join', {}]);
    await vi.advanceTimersByTimeAsync(0);
    expect(socket.sent[0]).toEqual([
      '1',
      '1',
      'realtime:public:x',
      'phx_reply',
      expect.objectContaining({ status: 'ok' }),
    ]);
    await vi.advanceTimersByTimeAsync(26 * DAY);
    expect(events(socket)).not.toContain('phx_close');
    await vi.advanceTimersByTimeAsync(5 * DAY);
    expect(events(socket)).toEqual(['phx_reply', 'system', 'phx_close']);
  });

  it('closes the connection once it keeps sending past its rate', async () => {
    const socket = makeConnection({ role: 'anon' });
    for (let i = 0; i < 150; i++) socket.receive([null, String(i), 'phoenix', 'heartbeat', {}]);
    expect(socket.sent).toHaveLength(100);
    expect(socket.closedWith).toBeUndefined();
    for (let i = 0; i < 100 && socket.closedWith === undefined; i++)
      socket.receive([null, 'x', 'phoenix', 'heartbeat', {}]);
    expect(socket.closedWith).toBe(1008);
  });

  it('lets a steady client go on for as long as it stays within the rate', async () => {
    const socket = makeConnection({ role: 'anon' });
    for (let second = 0; second < 20; second++) {
      for (let i = 0; i < 90; i++) socket.receive([null, 'h', 'phoenix', 'heartbeat', {}]);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(socket.closedWith).toBeUndefined();
    expect(socket.sent).toHaveLength(20 * 90);
  });

  it('drops a reader that lets too much pile up unread', async () => {
    const socket = makeConnection({ role: 'anon' });
    socket.receive([null, '1', 'phoenix', 'heartbeat', {}]);
    expect(socket.sent).toHaveLength(1);
    socket.bufferedAmount = 5 * 1024 * 1024;
    socket.receive([null, '2', 'phoenix', 'heartbeat', {}]);
    expect(socket.sent).toHaveLength(1);
    expect(socket.closedWith).toBe(1013);
  });

  it('a slow refresh that fails does not close a channel a newer refresh already renewed', async () => {
    const member = { role: 'authenticated' as const, sub: '00000000-0000-4000-8000-00000000000a' };
    const socket = makeConnection({ role: 'anon' }, async (token) => {
      if (token === 'slow-and-bad') {
        await new Promise((r) => setTimeout(r, 100));
        throw new Error('invalid');
      }
      return { ...member, exp: Math.floor(Date.now() / 1000) + 3600 };
    });
    socket.receive(['1', '1', 'realtime:public:x', 'phx_join', { access_token: 'good' }]);
    await vi.advanceTimersByTimeAsync(0);
    socket.receive(['1', null, 'realtime:public:x', 'access_token', { access_token: 'slow-and-bad' }]);
    socket.receive(['1', null, 'realtime:public:x', 'access_token', { access_token: 'good-again' }]);
    await vi.advanceTimersByTimeAsync(200);
    expect(events(socket)).toEqual(['phx_reply']);
  });

  it('refuses a join whose session ended while its token was being checked', async () => {
    const hub = new RealtimeHub();
    const member = {
      role: 'authenticated' as const,
      sub: '00000000-0000-4000-8000-00000000000a',
      session_id: 's1',
    };
    const socket = makeConnection(
      { role: 'anon' },
      async () => {
        await new Promise((r) => setTimeout(r, 50));
        return member;
      },
      hub,
    );
    socket.receive(['1', '1', 'realtime:online-users', 'phx_join', { access_token: 'token-of-s1' }]);
    hub.endSessions(member.sub, ['s1']);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.sent).toEqual([
      [
        '1',
        '1',
        'realtime:online-users',
        'phx_reply',
        { status: 'error', response: { reason: 'Session ended' } },
      ],
    ]);
  });

  it('online-users: a hidden status drops the entry, a failed check keeps a checked one and shows nobody new', async () => {
    // The member's show_online_status as the database answers it; 'down' makes the read fail.
    let setting: 'shown' | 'hidden' | 'down' = 'shown';
    const db = {
      // The members hidden from the joiner (blocks, reports): none here.
      query: async () => ({ rows: [] }),
      transaction: async (fn: (tx: unknown) => Promise<unknown>) => {
        if (setting === 'down') throw new Error('database unavailable');
        return fn({
          query: async (sql: string) => ({
            rows: sql.includes('show_online_status') ? [{ show_online_status: setting === 'shown' }] : [],
          }),
        });
      },
    };
    const hub = new RealtimeHub();
    const member = (n: string): JwtClaims => ({
      role: 'authenticated',
      sub: `00000000-0000-4000-8000-00000000000${n}`,
    });
    const join = (socket: FakeSocket) =>
      socket.receive([
        '1',
        'j',
        'realtime:online-users',
        'phx_join',
        { config: { presence: { enabled: true } } },
      ]);
    const track = (socket: FakeSocket, ref: string, meta: Record<string, unknown>) =>
      socket.receive(['1', ref, 'realtime:online-users', 'presence', { event: 'track', payload: meta }]);
    const reply = (socket: FakeSocket, ref: string) =>
      (socket.sent.find((m) => (m as unknown[])[1] === ref) as unknown[] | undefined)?.[4];
    const diffs = (socket: FakeSocket) => socket.sent.filter((m) => (m as unknown[])[3] === 'presence_diff');

    const watcher = makeConnection(member('b'), undefined, hub, db);
    const alice = makeConnection(member('a'), undefined, hub, db);
    join(watcher);
    join(alice);
    await vi.advanceTimersByTimeAsync(0);
    track(alice, 't1', { status: 'here' });
    await vi.advanceTimersByTimeAsync(0);
    expect(reply(alice, 't1')).toMatchObject({ status: 'ok' });
    expect(diffs(watcher)).toHaveLength(1);

    setting = 'down';
    track(alice, 't2', { status: 'away' });
    await vi.advanceTimersByTimeAsync(0);
    expect(reply(alice, 't2')).toMatchObject({ status: 'error' });
    expect(diffs(watcher)).toHaveLength(1);
    expect(Object.keys(hub.getPresenceState('realtime:online-users'))).toEqual([member('a').sub]);
    track(watcher, 't3', { status: 'here' });
    await vi.advanceTimersByTimeAsync(0);
    expect(reply(watcher, 't3')).toMatchObject({ status: 'error' });
    expect(Object.keys(hub.getPresenceState('realtime:online-users'))).toEqual([member('a').sub]);

    setting = 'hidden';
    track(alice, 't4', { status: 'here' });
    await vi.advanceTimersByTimeAsync(0);
    expect(reply(alice, 't4')).toMatchObject({
      status: 'error',
      response: { reason: expect.stringMatching(/hidden/) },
    });
    expect(diffs(watcher)).toHaveLength(2);
    expect(hub.getPresenceState('realtime:online-users')).toEqual({});
  });
});
