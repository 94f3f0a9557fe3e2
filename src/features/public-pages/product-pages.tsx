// Public pages about the product: AI features, how it works, success stories, comparison, community.
import { Link } from 'react-router-dom';
import { PublicPage } from './public-page.tsx';

export function AiFeaturesPage() {
  return (
    <PublicPage
      title="AI Features"
      lead="AI on HeartSync helps you meet people and talk to them. It never decides for you."
    >
      <h2>Compatibility you can read</h2>
      <p>
        You answer short compatibility questions and say which answers you would accept from a partner and how
        much each matters. HeartSync scores every pair in both directions and shows the score with its
        reasons: shared answers, shared interests and whether your relationship goals line up.
      </p>
      <h2>Conversation help</h2>
      <p>
        Stuck on a first message? The assistant suggests openers drawn from what you and your match have in
        common. You can edit or ignore every suggestion; nothing is sent without you.
      </p>
      <h2>AI agents you configure</h2>
      <p>
        Members can set up agents that pre-sort discovery or remind them of conversations waiting for an
        answer. Each agent has limits you can see, and you can switch them off at any time.
      </p>
      <h2>Private by design</h2>
      <ul>
        <li>
          The AI runs on the server of this instance or a provider its operator chose; keys never reach your
          browser.
        </li>
        <li>Without a configured AI provider, a built-in offline coach gives the suggestions.</li>
        <li>
          Your exact location, address and e-mail are never shown to other members or to the AI features.
        </li>
      </ul>
      <p>
        <Link to="/signup" className="btn-primary mt-4">
          Try it: create your profile
        </Link>
      </p>
    </PublicPage>
  );
}

export function HowItWorksPage() {
  const steps = [
    ['Create your account', 'Sign up with your e-mail address and confirm it with the link we send you.'],
    ['Build your profile', 'Add photos, a short bio, your interests and what you are looking for.'],
    [
      'Answer compatibility questions',
      'Say what you think and what you accept from a partner. Skip any you like.',
    ],
    ['Discover', 'Browse members whose preferences fit yours both ways, ranked by compatibility.'],
    ['Match', 'When you both like each other, it is a match and you can start talking.'],
    ['Talk and meet', 'Chat, call by video inside the app, and meet when you both feel ready.'],
  ];
  return (
    <PublicPage title="How It Works" lead="From sign-up to a first date in six steps.">
      <ol className="space-y-4">
        {steps.map(([title, text], i) => (
          <li key={title} className="card list-none">
            <h2 className="!mt-0 text-lg font-semibold">
              {i + 1}. {title}
            </h2>
            <p className="!mb-0">{text}</p>
          </li>
        ))}
      </ol>
      <h2>You stay in control</h2>
      <p>
        Pause your account for a week up to a year and you disappear from discovery until you come back.
        Delete it whenever you want; you have a grace period to change your mind. See the{' '}
        <Link to="/help" className="link">
          help page
        </Link>{' '}
        for details.
      </p>
    </PublicPage>
  );
}

export function SuccessStoriesPage() {
  const stories = [
    {
      names: 'Maya & Jonas',
      text: 'Both answered that weekends outdoors mattered a lot. Their first message was about a hiking trail they both had on their list.',
    },
    {
      names: 'Priya & Sam',
      text: 'They disagreed on pineapple pizza and agreed on everything that mattered more: the score said 87 and showed why.',
    },
    {
      names: 'Lena & Marco',
      text: 'Marco paused his account during a busy month, came back, and Lena was the first match in his deck.',
    },
  ];
  return (
    <PublicPage title="Success Stories" lead="What a good match on HeartSync can look like.">
      <p role="note" className="rounded-lg border border-yellow-300 bg-yellow-50 p-3 text-yellow-900">
        These are illustrative examples written to show how the features work, not real members. Real stories
        will be published here only with the consent of the people in them.
      </p>
      <ul className="mt-6 grid list-none gap-4 !pl-0 md:grid-cols-3">
        {stories.map((s) => (
          <li key={s.names} className="card">
            <p className="text-xs font-semibold text-muted uppercase">Example</p>
            <h2 className="!mt-1 text-lg font-semibold">{s.names}</h2>
            <p className="!mb-0">{s.text}</p>
          </li>
        ))}
      </ul>
      <p className="mt-6">
        Found someone here? Tell the operator of this instance through the{' '}
        <Link to="/contact" className="link">
          contact page
        </Link>
        .
      </p>
    </PublicPage>
  );
}

const YES = 'Yes';
const NO = 'No';

export function CompareAppsPage() {
  const rows: Array<[string, string, string, string, string]> = [
    ['Open source and self-hostable', YES, NO, NO, NO],
    ['Company behind it', 'You or your community', 'Match Group', 'Bumble Inc.', 'Match Group'],
    ['Compatibility questions with scores', YES, NO, NO, YES],
    ['Works offline (swipe and read messages)', YES, NO, NO, NO],
    [
      'Exact location hidden from others',
      'Yes: distance bands only',
      'Distance shown',
      'Distance shown',
      'Distance shown',
    ],
    ['Pause your account', YES, YES, 'Yes (Snooze)', NO],
    ['Free to use', YES, YES, YES, YES],
  ];
  return (
    <PublicPage
      title="Compare Apps"
      lead="How HeartSync differs from the best-known dating apps, on points you can check yourself."
    >
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Feature comparison of HeartSync, Tinder, Bumble and OkCupid</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="p-2">
                Feature
              </th>
              <th scope="col" className="p-2">
                HeartSync
              </th>
              <th scope="col" className="p-2">
                Tinder
              </th>
              <th scope="col" className="p-2">
                Bumble
              </th>
              <th scope="col" className="p-2">
                OkCupid
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([feature, ...cells]) => (
              <tr key={feature} className="border-b border-border">
                <th scope="row" className="p-2 font-medium">
                  {feature}
                </th>
                {cells.map((c, i) => (
                  <td key={i} className="p-2">
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-4 text-sm text-muted">
        Other apps change often; this table reflects their public descriptions in 2025. Where an app does not
        document a feature, it is listed as not offered. Corrections are welcome through the contact page.
      </p>
    </PublicPage>
  );
}

export function CommunityPage() {
  return (
    <PublicPage
      title="Community"
      lead="A dating community works when everyone can feel safe and be themselves."
    >
      <h2>Community guidelines</h2>
      <ul>
        <li>Be yourself: real photos of you, your real age, no impersonation.</li>
        <li>Be kind: no harassment, hate, threats or unwanted sexual content.</li>
        <li>Take no for an answer: an unanswered message is an answer.</li>
        <li>Keep it personal: no advertising, selling or asking for money.</li>
        <li>Adults only: members must be 18 or older.</li>
      </ul>
      <h2>When someone breaks them</h2>
      <p>
        Block or report from their profile or your conversation. Either hides you from each other at once.
        Reports go to the operator of this instance, who reviews them and can remove accounts.
      </p>
      <h2>Get involved</h2>
      <p>
        HeartSync is open source: anyone can run an instance for their own community and help improve the
        software. Read the{' '}
        <Link to="/safety-center" className="link">
          Safety Center
        </Link>{' '}
        for advice on meeting people you met online.
      </p>
    </PublicPage>
  );
}
