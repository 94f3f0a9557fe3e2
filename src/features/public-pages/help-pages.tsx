// Public help pages: the safety center, the FAQ, contact and subscription management.
import { Link } from 'react-router-dom';
import { OperatorContact, PublicPage, useOperator } from './public-page.tsx';

export function SafetyCenterPage() {
  return (
    <PublicPage title="Safety Center" lead="Practical advice for dating people you met online.">
      <h2>Before you meet</h2>
      <ul>
        <li>
          Keep the conversation in the app until you trust the person; it lets you block and report if needed.
        </li>
        <li>Do not share your home address, workplace details, or financial information.</li>
        <li>
          Look for consistency: do their photos, stories and answers fit together? A video call first helps.
        </li>
        <li>
          Never send money or gift cards to someone you have not met, whatever the story. This is the most
          common scam.
        </li>
      </ul>
      <h2>Meeting for the first time</h2>
      <ul>
        <li>Meet in a busy public place and arrange your own transport there and back.</li>
        <li>Tell a friend who you are meeting, where and when, and check in with them afterwards.</li>
        <li>Keep your phone charged and stay in control of your drink and your belongings.</li>
        <li>You can leave at any time, without explanation.</li>
      </ul>
      <h2>Warning signs</h2>
      <ul>
        <li>Pressure to move to another messaging app quickly, or to meet somewhere private.</li>
        <li>Refusing video calls while asking for intimate photos.</li>
        <li>Requests for money, investment advice, or help with a sudden emergency.</li>
      </ul>
      <h2>On HeartSync</h2>
      <p>
        Others never see your exact location: distances are shown as bands. Blocking someone hides you from
        each other everywhere at once, and reports go to the operator of this instance.
      </p>
      <h2>If you are in danger</h2>
      <p>
        Call your local emergency number (112 in Europe, 911 in North America). If someone has hurt you,
        support services for sexual violence and domestic abuse in your country can help, confidentially.
      </p>
    </PublicPage>
  );
}

const FAQ: Array<[string, string]> = [
  [
    'How do I create an account?',
    'Choose Get Started, fill in your name, e-mail and a password of at least 8 characters, then open the confirmation link we e-mail you.',
  ],
  [
    'I did not get the confirmation e-mail.',
    'Check your spam folder. On the "Check your email" page you can send the link again.',
  ],
  [
    'I forgot my password.',
    'Use "Forgot password?" on the sign-in page. The link we send lets you choose a new password once.',
  ],
  [
    'What does "Remember me" do?',
    'When it is checked you stay signed in after closing the browser. Uncheck it on shared devices: the session then ends with the browser tab.',
  ],
  [
    'Why was I signed out?',
    'For your security you are signed out after 120 minutes without activity, or when your session can no longer be renewed.',
  ],
  [
    'How do I take a break?',
    'In Account, pause your account for 1 week, 1, 3 or 6 months or 1 year. You are hidden from discovery until the pause ends or you reactivate.',
  ],
  [
    'How do I delete my account?',
    'In Account, enter your password and schedule the deletion. Everything is deleted after the grace period; you can cancel until then.',
  ],
  [
    'Where can I read dating tips?',
    'Signed in, open Dating Resources in the menu’s Community group: short guides on safety, first messages, first dates, your profile and wellbeing. They read offline too.',
  ],
  [
    'How do I block or unblock someone?',
    'Block or report them from their card in Find Matches or on your Likes page, or from your conversation: either hides you from each other at once. Account lists the members you blocked; Unblock there lets you find each other again, though an earlier match does not come back.',
  ],
  [
    'Who can see my location?',
    'Nobody sees your exact location. Other members see your city and a rounded distance band.',
  ],
  [
    'How do I change the colours?',
    'Use the Theme menu in the member area: seven colour themes, each with a light and a dark mode.',
  ],
];

export function HelpPage() {
  return (
    <PublicPage title="Help" lead="Answers to the questions members ask most.">
      <div className="space-y-3">
        {FAQ.map(([q, a]) => (
          <details key={q} className="card py-4">
            <summary className="cursor-pointer font-semibold">{q}</summary>
            <p className="!mb-0 mt-2">{a}</p>
          </details>
        ))}
      </div>
      <p className="mt-6">
        Still stuck?{' '}
        <Link to="/contact" className="link">
          Contact us
        </Link>
        .
      </p>
    </PublicPage>
  );
}

export function ContactPage() {
  const op = useOperator();
  return (
    <PublicPage title="Contact" lead={`This HeartSync instance is run by ${op.name}.`}>
      <p>
        For questions about your account, privacy requests or reports of abuse, write to{' '}
        <OperatorContact op={op} />.
      </p>
      <p>
        Members can also report a profile directly from the app; reports reach the operator without you
        needing to write an e-mail.
      </p>
    </PublicPage>
  );
}

export function ManageSubscriptionPage() {
  return (
    <PublicPage title="Manage Subscription" lead="See and change your plan.">
      <p>
        Your current plan, renewal date and invoices are shown in the member area once you are signed in. From
        there you can change or cancel your plan; a cancelled plan stays active until the end of the period
        you paid for.
      </p>
      <ul>
        <li>
          <Link to="/pricing" className="link">
            Compare plans
          </Link>
        </li>
        <li>
          <Link to="/account" className="link">
            Account settings
          </Link>
        </li>
        <li>
          <Link to="/login" className="link">
            Sign in
          </Link>{' '}
          if you are not signed in yet.
        </li>
      </ul>
      <p className="text-sm text-muted">
        Payments are handled by the payment provider this instance's operator configured; HeartSync never
        stores card numbers.
      </p>
    </PublicPage>
  );
}
