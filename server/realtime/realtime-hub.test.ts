// The hub alone with fake peers: presence diffs, self-delivery and which channels ended sessions close.
import { describe, expect, it } from 'vitest';
import type { JwtClaims } from '../auth/keys.ts';
import type { PhoenixMessage } from './protocol.ts';
import { RealtimeHub, type HubPeer, type Subscription } from './realtime-hub.ts';
import { findTopicAccess } from './topics.ts';

class FakePeer implements HubPeer {
  readonly vsn = '1.0.0' as const;
  sent: PhoenixMessage[] = [];
  closed: string[] = [];
  constructor(private readonly hub: RealtimeHub) {}
  send(message: PhoenixMessage) {
    this.sent.push(message);
  }
  sendRaw() {}
  closeSubscription(subscription: Subscription, message: string) {
    this.closed.push(`${subscription.topic}: ${message}`);
    this.hub.remove(subscription);
  }
  afterSessionsEnded() {}
}

function subscribe(
  hub: RealtimeHub,
  peer: HubPeer,
  topic: string,
  claims: JwtClaims,
  extra: Partial<Subscription> = {},
) {
  const s: Subscription = {
    peer,
    topic,
    joinRef: '1',
    access: findTopicAccess(topic)!,
    claims,
    broadcastSelf: false,
    broadcastAck: false,
    presenceEnabled: true,
    presenceKey: claims.sub ?? 'anon',
    ...extra,
  };
  hub.add(s);
  return s;
}

const alice = '00000000-0000-4000-8000-00000000000a';
const bob = '00000000-0000-4000-8000-00000000000b';

describe('realtime hub', () => {
  it('closes only the channels joined with a token of an ended session', () => {
    const hub = new RealtimeHub();
    const p1 = new FakePeer(hub);
    const p2 = new FakePeer(hub);
    subscribe(hub, p1, 'realtime:online-users', { role: 'authenticated', sub: alice, session_id: 's1' });
    subscribe(hub, p2, 'realtime:online-users', { role: 'authenticated', sub: alice, session_id: 's2' });
    subscribe(hub, p2, 'realtime:public:x', { role: 'authenticated', sub: bob, session_id: 's1' });
    hub.endSessions(alice, ['s1']);
    expect(p1.closed).toEqual(['realtime:online-users: Session ended']);
    expect(p2.closed).toEqual([]);
    hub.endSessions(alice, 'all');
    expect(p2.closed).toEqual(['realtime:online-users: Session ended']);
    expect(hub.getSubscribers('realtime:public:x').size).toBe(1);
  });

  it('sends a join diff on track, a leave and a join on re-track, and a leave when removed', () => {
    const hub = new RealtimeHub();
    const watcher = new FakePeer(hub);
    const tracker = new FakePeer(hub);
    subscribe(hub, watcher, 'realtime:online-users', { role: 'authenticated', sub: bob });
    const s = subscribe(hub, tracker, 'realtime:online-users', { role: 'authenticated', sub: alice });
    hub.track(s, { status: 'online' });
    hub.track(s, { status: 'away' });
    hub.remove(s);
    const diffs = watcher.sent.map((m) => m.payload as { joins: object; leaves: object });
    expect(diffs).toHaveLength(3);
    expect(diffs[0]!.joins).toMatchObject({ [alice]: { metas: [{ status: 'online' }] } });
    expect(diffs[1]!.joins).toMatchObject({ [alice]: { metas: [{ status: 'away' }] } });
    expect(diffs[1]!.leaves).toMatchObject({ [alice]: { metas: [{ status: 'online' }] } });
    expect(diffs[2]!.leaves).toMatchObject({ [alice]: { metas: [{ status: 'away' }] } });
    expect(hub.getPresenceState('realtime:online-users')).toEqual({});
  });

  it('a re-track on online-users changing only lastActivity is kept for newcomers but sent to nobody', () => {
    const hub = new RealtimeHub();
    const watcher = new FakePeer(hub);
    const tracker = new FakePeer(hub);
    subscribe(hub, watcher, 'realtime:online-users', { role: 'authenticated', sub: bob });
    const s = subscribe(hub, tracker, 'realtime:online-users', { role: 'authenticated', sub: alice });
    expect(hub.track(s, { userId: alice, lastActivity: '10:00:00' })).toBe(true);
    expect(hub.track(s, { userId: alice, lastActivity: '10:00:10' })).toBe(false);
    expect(watcher.sent).toHaveLength(1);
    expect(hub.getPresenceState('realtime:online-users')[alice]?.metas).toEqual([
      expect.objectContaining({ userId: alice, lastActivity: '10:00:10' }),
    ]);
    // Anything else changing is news again.
    expect(hub.track(s, { userId: alice, lastActivity: '10:00:20', status: 'away' })).toBe(true);
    expect(watcher.sent).toHaveLength(2);
  });

  it('on other topics only an identical re-track is silent', () => {
    const hub = new RealtimeHub();
    const watcher = new FakePeer(hub);
    const tracker = new FakePeer(hub);
    subscribe(hub, watcher, 'realtime:public:room', { role: 'anon', sub: 'w' });
    const s = subscribe(hub, tracker, 'realtime:public:room', { role: 'anon', sub: 't' });
    hub.track(s, { cursor: { x: 1 }, lastActivity: 1 });
    hub.track(s, { cursor: { x: 1 }, lastActivity: 1 });
    hub.track(s, { cursor: { x: 1 }, lastActivity: 2 });
    expect(watcher.sent).toHaveLength(2);
  });

  it('delivers a broadcast to the sender only when it asked for self', () => {
    const hub = new RealtimeHub();
    const a = new FakePeer(hub);
    const b = new FakePeer(hub);
    const sa = subscribe(hub, a, 'realtime:public:r', { role: 'anon' });
    const sb = subscribe(hub, b, 'realtime:public:r', { role: 'anon' }, { broadcastSelf: true });
    const out = { userEvent: 'e', encoding: 1 as const, payload: Buffer.from('{"n":1}') };
    hub.broadcast('realtime:public:r', out, sa);
    expect(a.sent).toHaveLength(0);
    expect(b.sent.map((m) => m.payload)).toEqual([{ type: 'broadcast', event: 'e', payload: { n: 1 } }]);
    hub.broadcast('realtime:public:r', out, sb);
    expect(a.sent).toHaveLength(1);
    expect(b.sent).toHaveLength(2);
  });
});
