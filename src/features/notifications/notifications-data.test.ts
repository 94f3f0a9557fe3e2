// Notification links stay inside the app; likes in a row are one entry.
import { describe, expect, it } from 'vitest';
import { getNotificationLink, groupNotifications } from './notifications-data.ts';

describe('notification links', () => {
  it('follows in-app paths and opens the conversation of a message', () => {
    expect(getNotificationLink({ type: 'like', link: '/likes' })).toBe('/likes');
    expect(getNotificationLink({ type: 'message', link: '/messages' }, 'abc')).toBe('/messages?c=abc');
  });
  it('never leaves the app', () => {
    for (const link of ['https://evil.example', '//evil.example', 'javascript:alert(1)', null, ''])
      expect(getNotificationLink({ type: 'system', link })).toBe('/notifications');
  });
});

describe('groupNotifications', () => {
  const row = (id: string, type: string, read = false) => ({
    id,
    type,
    title: type === 'like' ? 'Someone liked you' : 'New match',
    body: null,
    link: null,
    data: null,
    read_at: read ? '2026-01-01T00:00:00Z' : null,
    created_at: '2026-01-01T00:00:00Z',
  });
  it('shows likes next to each other as one entry, unread if any of them is', () => {
    const groups = groupNotifications([
      row('1', 'like'),
      row('2', 'like', true),
      row('3', 'like', true),
      row('4', 'match'),
      row('5', 'like', true),
    ]);
    expect(groups.map((g) => [g.title, g.items.map((i) => i.id), g.unread])).toEqual([
      ['3 people liked you', ['1', '2', '3'], true],
      ['New match', ['4'], true],
      ['Someone liked you', ['5'], false],
    ]);
  });
  it('never groups other types', () => {
    expect(groupNotifications([row('1', 'match'), row('2', 'match')])).toHaveLength(2);
  });
});
