// Notification links stay inside the app.
import { describe, expect, it } from 'vitest';
import { getNotificationLink } from './notifications-data.ts';

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
