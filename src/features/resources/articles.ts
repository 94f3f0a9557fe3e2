// The Dating Resources library (/dating-resources, /articles/{slug}): short guides on dating well and safely.
// The words ship with the app's code, so every guide reads offline, as the rest of the member area does; a new
// guide is one more entry here (its slug is its address and never changes once published).

export type TopicId = 'safety' | 'conversation' | 'dates' | 'profile' | 'wellbeing';

export interface Topic {
  id: TopicId;
  label: string;
}

/** The topics in the order the library lists them. */
export const TOPICS: readonly Topic[] = [
  { id: 'safety', label: 'Safety' },
  { id: 'conversation', label: 'Conversation' },
  { id: 'dates', label: 'First dates' },
  { id: 'profile', label: 'Your profile' },
  { id: 'wellbeing', label: 'Wellbeing' },
];

/** One part of a guide: an optional heading, then paragraphs and/or a list. */
export interface ArticleSection {
  heading?: string;
  paragraphs?: readonly string[];
  list?: readonly string[];
}

export interface Article {
  slug: string;
  title: string;
  topic: TopicId;
  /** One sentence for the library's card. */
  summary: string;
  sections: readonly ArticleSection[];
  /** Guides to read next, by slug. */
  related: readonly string[];
}

export const ARTICLES: readonly Article[] = [
  {
    slug: 'meeting-safely',
    title: 'Meeting someone for the first time, safely',
    topic: 'safety',
    summary: 'A short checklist for the day you meet a match in person.',
    sections: [
      {
        paragraphs: [
          'Most first meetings are simply nice. A few habits keep them that way, and none of them needs an explanation to the person you are meeting: they are what careful people do.',
        ],
      },
      {
        heading: 'Before the date',
        list: [
          'Talk on a video call first. It takes ten minutes and tells you the person is who their photos say.',
          'Tell a friend who you are meeting, where and when, and agree when you will message them afterwards.',
          'Keep your home address, workplace and daily routine to yourself until you know the person well.',
        ],
      },
      {
        heading: 'On the day',
        list: [
          'Meet in a busy public place: a café, a bar you know, a museum. Not at either home.',
          'Arrange your own way there and back, so you can leave whenever you want.',
          'Keep your phone charged, and your drink and your belongings with you.',
          'Stay sober enough to judge the situation; it is fine to have a soft drink.',
        ],
      },
      {
        heading: 'You can always leave',
        paragraphs: [
          'If something feels wrong, you do not owe anyone a reason. Say goodbye, or just go. Afterwards you can block the person on HeartSync, which hides you from each other everywhere at once, and report them if they broke the rules.',
        ],
      },
    ],
    related: ['romance-scams', 'video-call-first', 'boundaries-and-consent'],
  },
  {
    slug: 'romance-scams',
    title: 'How to spot a romance scam',
    topic: 'safety',
    summary: 'The patterns scammers follow, and the one rule that defeats all of them.',
    sections: [
      {
        paragraphs: [
          'Romance scams are built on time and trust: weeks of warm messages, then a request. They work on clever people too, because the story is made to fit the person hearing it.',
        ],
      },
      {
        heading: 'The usual pattern',
        list: [
          'Strong feelings very early, and a wish to move the conversation to another app quickly.',
          'A life that keeps them from meeting: work abroad, an oil rig, the army, a sick relative.',
          'Video calls that never quite happen: a broken camera, a bad connection, a busy schedule.',
          'Then a sudden problem that money would solve: a ticket, a fee, a customs charge, an investment that cannot wait.',
        ],
      },
      {
        heading: 'The rule',
        paragraphs: [
          'Never send money, gift cards, cryptocurrency or bank details to someone you have not met in person, whatever the story and however real it sounds. Someone who cares about you will understand.',
        ],
      },
      {
        heading: 'If it happens to you',
        paragraphs: [
          'Stop replying, report the profile so it can be looked at, and keep the messages. If you sent money, contact your bank at once and report the fraud to the police. Being targeted is not a failure of yours: these are organised crimes.',
        ],
      },
    ],
    related: ['meeting-safely', 'video-call-first'],
  },
  {
    slug: 'first-messages',
    title: 'First messages that get an answer',
    topic: 'conversation',
    summary: 'Why "hey" goes unanswered, and what to write instead.',
    sections: [
      {
        paragraphs: [
          'A first message has one job: to make answering easy and pleasant. "Hey" leaves all the work to the other person; a message about them gives them something to say.',
        ],
      },
      {
        heading: 'What works',
        list: [
          'Start from their profile: a photo, an interest, a line of their bio. It shows you looked.',
          'Ask one open question, one they can answer in a sentence or a story.',
          'Keep it short. Two or three lines is plenty.',
          'Be yourself: a little humour helps, a copied line does not.',
        ],
      },
      {
        heading: 'A few openers',
        list: [
          '"You hike in the Alps: which trail would you send a beginner on?"',
          '"Your bio says you make the best risotto in town. Bold claim. What is the secret?"',
          '"Board game nights: are you the one who reads the rules, or the one who wins?"',
        ],
      },
      {
        heading: 'A little help',
        paragraphs: [
          'In a new conversation, Wingman suggests a few conversation starters from what the two of you share. They are labelled as AI help, and nothing is sent unless you send it: change the words until they sound like you.',
        ],
      },
    ],
    related: ['chat-to-date', 'profile-that-feels-like-you'],
  },
  {
    slug: 'chat-to-date',
    title: 'From chatting to a first date',
    topic: 'conversation',
    summary: 'When to suggest meeting, and how to ask so that yes is easy.',
    sections: [
      {
        paragraphs: [
          'Conversations that go on for weeks tend to fade. Once you have had a good exchange or two and you are curious about each other, suggest meeting.',
        ],
      },
      {
        heading: 'How to ask',
        list: [
          'Be concrete: a place and a couple of times, not "we should meet sometime".',
          'Keep it light and short: coffee or a walk, an hour, easy to say yes to.',
          'Leave room for no: "if you would rather talk a bit more first, that is fine too".',
        ],
      },
      {
        heading: 'Warm up together',
        paragraphs: [
          'A quick game of This or That or Would You Rather, from the games in your conversation, is a playful way to learn how the other person thinks before you meet. A short video call does the same and is the safest first step.',
        ],
      },
    ],
    related: ['first-date-ideas', 'video-call-first', 'first-messages'],
  },
  {
    slug: 'first-date-ideas',
    title: 'First date ideas that make talking easy',
    topic: 'dates',
    summary: 'Short, public and with something to do: dates that take the pressure off.',
    sections: [
      {
        paragraphs: [
          'The best first dates are short, in a public place, and give you something to look at or do together, so that silences are comfortable rather than awkward.',
        ],
      },
      {
        heading: 'Ideas',
        list: [
          'Coffee and a walk: easy to extend if it goes well, easy to end if it does not.',
          'A market, a gallery or a museum: there is always something to talk about.',
          'A quiz night or a board game café: you see how the other person plays.',
          'A cooking class or a tasting: something new to both of you.',
        ],
      },
      {
        heading: 'Keep in mind',
        list: [
          'Choose a place you can both reach easily, and that you know.',
          'Agree on a time to start and a rough time to finish.',
          'Splitting the bill is a fine default; whoever suggested an expensive place might offer to pay.',
        ],
      },
    ],
    related: ['meeting-safely', 'chat-to-date'],
  },
  {
    slug: 'video-call-first',
    title: 'Why a video call before you meet helps',
    topic: 'dates',
    summary: 'Ten minutes on video tells you more than a week of messages.',
    sections: [
      {
        paragraphs: [
          'A short video call before a first date is the simplest safety check there is, and it makes the date itself easier: you already know each other’s voice and smile.',
        ],
      },
      {
        heading: 'What it tells you',
        list: [
          'That the person is who their photos say.',
          'Whether the conversation flows when it is not written.',
          'Whether you would like to spend an hour together in person.',
        ],
      },
      {
        heading: 'On HeartSync',
        paragraphs: [
          'When you and your match are both Premium members, you can call each other by video or audio from your conversation or the match list, without sharing a phone number. Someone who keeps avoiding any call while asking you for money or for intimate photos is showing you a warning sign.',
        ],
      },
    ],
    related: ['meeting-safely', 'romance-scams'],
  },
  {
    slug: 'profile-that-feels-like-you',
    title: 'Photos and a bio that feel like you',
    topic: 'profile',
    summary: 'A profile that starts conversations: recent photos, and a bio with something to ask about.',
    sections: [
      {
        heading: 'Photos',
        list: [
          'Start with a recent, clear photo of your face, on your own, smiling if you like.',
          'Add a full-length photo and one or two doing something you love.',
          'Skip sunglasses in the first photo, and group photos where it is hard to tell which one is you.',
        ],
      },
      {
        heading: 'Your bio',
        list: [
          'Say what you enjoy, concretely: "Sunday markets and long breakfasts" rather than "I like food".',
          'Leave a hook someone can ask about: a trip you are planning, a skill you are learning.',
          'Say what you are looking for, kindly and honestly.',
          'Keep your surname, address, workplace and phone number out of it.',
        ],
      },
      {
        heading: 'Why it matters here',
        paragraphs: [
          'Your interests and the questions you answer feed the compatibility shown on your card, and Wingman draws on them for openers. A complete profile gets better matches; your dashboard shows what is still missing.',
        ],
      },
    ],
    related: ['first-messages', 'rejection-and-breaks'],
  },
  {
    slug: 'boundaries-and-consent',
    title: 'Boundaries and consent',
    topic: 'wellbeing',
    summary: 'Saying what you want and do not want, and hearing it from others.',
    sections: [
      {
        paragraphs: [
          'Good dating is built on both people feeling free to say yes, no or not yet, at any point, about anything: meeting, touching, sharing photos, staying longer.',
        ],
      },
      {
        heading: 'Your boundaries',
        list: [
          'You can change your mind at any time, even after agreeing to something.',
          'You do not owe anyone your address, your photos or your time.',
          'Clear and short is kind: "I am not comfortable with that" is a complete sentence.',
        ],
      },
      {
        heading: 'Other people’s',
        list: [
          'Consent is an enthusiastic yes, not the absence of a no. If you are unsure, ask.',
          'Silence, hesitation or a change of subject are answers too: take them as a no.',
          'Never share someone’s messages or photos without their permission.',
        ],
      },
      {
        heading: 'If someone crosses the line',
        paragraphs: [
          'Block them, and report them from their card or your conversation so the operator can act. If you are in danger, call your local emergency number (112 in Europe, 911 in North America).',
        ],
      },
    ],
    related: ['meeting-safely', 'rejection-and-breaks'],
  },
  {
    slug: 'rejection-and-breaks',
    title: 'Rejection, ghosting and taking a break',
    topic: 'wellbeing',
    summary: 'Dating has quiet days. How to keep it from wearing you down.',
    sections: [
      {
        paragraphs: [
          'Not every like is returned and not every conversation goes anywhere. That says little about you: people are busy, tired, or looking for something else.',
        ],
      },
      {
        heading: 'When it stings',
        list: [
          'A match who stops answering has given you an answer; let it go without chasing.',
          'If you are the one losing interest, a short, kind message is better than silence.',
          'Keep the rest of your life full: friends, hobbies, sleep. Dating is one part of it.',
        ],
      },
      {
        heading: 'Taking a break',
        paragraphs: [
          'If dating starts to feel like a chore, pause. In Account Settings you can pause your account for a week, a few months or a year: you are hidden from discovery until the pause ends, or until you reactivate whenever you are ready.',
        ],
      },
    ],
    related: ['profile-that-feels-like-you', 'boundaries-and-consent'],
  },
];

const BY_SLUG = new Map(ARTICLES.map((a) => [a.slug, a]));

export function getArticle(slug: string): Article | undefined {
  return BY_SLUG.get(slug);
}

export function isTopicId(value: string | null | undefined): value is TopicId {
  return TOPICS.some((t) => t.id === value);
}

export function getTopicLabel(id: TopicId): string {
  return TOPICS.find((t) => t.id === id)?.label ?? id;
}

/** The guides of a topic, or all of them, in the library's order. */
export function getArticles(topic?: TopicId): Article[] {
  return ARTICLES.filter((a) => topic === undefined || a.topic === topic);
}

/** The guides to read next: the listed ones that exist. */
export function getRelated(article: Article): Article[] {
  return article.related.flatMap((slug) => {
    const a = BY_SLUG.get(slug);
    return a && a.slug !== article.slug ? [a] : [];
  });
}

const WORDS_PER_MINUTE = 200;

/** Whole minutes to read a guide at an ordinary pace, at least one. */
export function getReadingMinutes(article: Article): number {
  const text = [
    article.title,
    ...article.sections.flatMap((s) => [s.heading ?? '', ...(s.paragraphs ?? []), ...(s.list ?? [])]),
  ].join(' ');
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
