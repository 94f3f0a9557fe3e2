// The mails the auth service sends: plain text plus simple HTML, with links only to PUBLIC_URL.
import type { MailMessage } from './mailer.ts';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function build(
  to: string,
  subject: string,
  paragraphs: string[],
  action: { label: string; link: string },
): MailMessage {
  const text = [...paragraphs, '', `${action.label}: ${action.link}`, '', '— HeartSync'].join('\n');
  const html = [
    '<!doctype html><html><body>',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(action.link)}">${escapeHtml(action.label)}</a></p>`,
    `<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(action.link)}</p>`,
    '<p>— HeartSync</p>',
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, link: action.link };
}

export function buildConfirmSignupMail(to: string, link: string, linkTtlMinutes: number): MailMessage {
  return build(
    to,
    'Confirm your HeartSync account',
    [
      'Welcome to HeartSync!',
      `Please confirm your e-mail address to finish creating your account. The link works once and expires in ${linkTtlMinutes} minutes.`,
      'If you did not sign up, you can ignore this mail.',
    ],
    { label: 'Confirm my e-mail address', link },
  );
}

export function buildResetPasswordMail(to: string, link: string, linkTtlMinutes: number): MailMessage {
  return build(
    to,
    'Reset your HeartSync password',
    [
      'Someone (hopefully you) asked to reset the password of your HeartSync account.',
      `The link works once and expires in ${linkTtlMinutes} minutes. Setting a new password signs you out everywhere else.`,
      'If you did not ask for this, you can ignore this mail: your password stays as it is.',
    ],
    { label: 'Choose a new password', link },
  );
}
