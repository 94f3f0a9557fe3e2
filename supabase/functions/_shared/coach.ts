// The built-in coach (issue 16): Lovy's answers when no language model is configured. Deterministic and
// honest: it recognises what the member asks about, then answers from a curated advice library shipped
// with the app, made specific with the member's own profile and, when the member asked about an open
// conversation, the other member's public interests. It never follows instructions found in anyone's text
// (it does not read instructions at all) and it says what it is.

import type { LovyConversation, LovyMember } from './lovy-prompt.ts';

/** What the coach knows: the same fields the model may see (lovy-prompt.ts), nothing private. */
export type CoachMember = LovyMember;
export type CoachConversation = LovyConversation;

export interface CoachInput {
  question: string;
  member: CoachMember;
  conversation?: CoachConversation | undefined;
}

export type CoachTopic =
  | 'safety'
  | 'reply'
  | 'opener'
  | 'engaging'
  | 'bio'
  | 'photos'
  | 'highlight'
  | 'stand-out'
  | 'profile'
  | 'conversation'
  | 'advice';

/** The label every coach answer carries, so no one mistakes it for a person or a language model. */
export const COACH_LABEL = "Lovy's built-in coach (no AI model is connected on this HeartSync):";

// Checked in order: the first topic whose words appear wins (safety first, whatever else is asked).
const TOPICS: [CoachTopic, RegExp][] = [
  ['safety', /\b(safe|safety|scam|money|meet(ing)? (up|in person)|first date|creepy|harass|uncomfortable)/i],
  ['reply', /\b(reply|respond|answer (him|her|them|this)|what (do|should) i (say|write) back)/i],
  [
    'opener',
    /\b(first message|opener|opening line|break the ice|icebreaker|say first|start (a|the) (chat|conversation) with)/i,
  ],
  [
    'engaging',
    /\b(keep (the )?(conversation|chat|it) (going|engaging|alive)|engag|dying|dry|boring conversation)/i,
  ],
  ['bio', /\b(bio|about me|describe myself)/i],
  ['photos', /\b(photo|picture|pic|selfie)/i],
  ['highlight', /\b(highlight|show(case)? about myself|what should i (mention|share))/i],
  ['stand-out', /\b(stand out|unique|noticed|more (likes|matches))/i],
  ['profile', /\b(profile)/i],
  ['conversation', /\b(conversation|starter|topic|talk about|chat)/i],
];

export function findCoachTopic(question: string): CoachTopic {
  for (const [topic, words] of TOPICS) if (words.test(question)) return topic;
  return 'advice';
}

const list = (items: string[]) => items.map((i) => `- ${i}`).join('\n');

function joinNames(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Interests both share, in the other member's spelling, case-insensitively. */
function sharedInterests(mine: string[], theirs: string[]): string[] {
  const own = new Set(mine.map((i) => i.trim().toLowerCase()));
  return theirs.filter((i) => own.has(i.trim().toLowerCase()));
}

function openers(member: CoachMember, conversation: CoachConversation | undefined): string[] {
  const theirs = conversation?.otherInterests.filter((i) => i.trim() !== '') ?? [];
  const shared = sharedInterests(member.interests, theirs);
  const name = conversation?.otherName?.trim();
  const ideas: string[] = [];
  if (shared[0])
    ideas.push(`"We both like ${shared[0]}: what got you into it?" (a shared interest is the easiest start)`);
  for (const interest of theirs.filter((i) => !shared.includes(i)).slice(0, 2))
    ideas.push(`"I saw ${interest} on your profile: what's the best part of it for you?"`);
  if (ideas.length === 0)
    ideas.push(
      `"${name ? `Hi ${name}! ` : ''}What's something you're looking forward to this week?"`,
      '"What would your ideal lazy Sunday look like?"',
    );
  ideas.push('Ask one open question (how, what, why) rather than "hey": it gives them something to answer.');
  return ideas;
}

function bioTips(member: CoachMember): string[] {
  const tips: string[] = [];
  const bio = member.bio?.trim() ?? '';
  if (bio.length === 0)
    tips.push('Your bio is empty: even three sentences make people far more likely to write.');
  else if (bio.length < 80)
    tips.push(`Your bio is short (${bio.length} characters): add one story or detail only you could write.`);
  else if (bio.length > 450)
    tips.push('Your bio is long: keep the two or three lines that sound most like you.');
  else tips.push('Your bio has a good length: make sure its first line makes someone curious.');
  if (member.interests.length > 0)
    tips.push(
      `Turn an interest into a detail: instead of "${member.interests[0]}", say what you love about it or your favourite spot for it.`,
    );
  else tips.push('Add a few interests: they are what most first messages are built on.');
  tips.push(
    'End with an easy question or invitation ("Tell me your best travel story") so replying is simple.',
  );
  return tips;
}

function photoTips(member: CoachMember): string[] {
  const tips: string[] = [];
  if (member.photoCount === 0)
    tips.push('You have no photos yet: a clear, smiling face photo first makes the biggest difference.');
  else if (member.photoCount < 3)
    tips.push(
      `You have ${member.photoCount} photo${member.photoCount > 1 ? 's' : ''}: three to five works best.`,
    );
  else tips.push(`You have ${member.photoCount} photos: put the clearest one of your face first.`);
  tips.push(
    'Show your face without sunglasses in at least one, in natural light.',
    'Add one photo doing something you love: it answers "what would we do together?".',
    'Skip group shots as the first photo: people should not have to guess which one is you.',
  );
  return tips;
}

function replyIdeas(member: CoachMember, conversation: CoachConversation | undefined): string {
  const last = [...(conversation?.lastMessages ?? [])].reverse().find((m) => !m.fromMe);
  const name = conversation?.otherName?.trim() || 'them';
  if (!conversation || !last)
    return `Open the conversation you want help with and ask again: I can then build on what ${name === 'them' ? 'your match' : name} wrote.\n\n${list(openers(member, conversation))}`;
  const asked = /\?\s*$/.test(last.text.trim());
  const ideas = [
    asked
      ? `Answer their question honestly first, with one detail, then ask one back: it keeps the turn-taking even.`
      : `Pick one detail from their last message and ask about it: people enjoy talking about what they just shared.`,
    'Match their length and energy: a short, warm reply to a short message, more to a long one.',
  ];
  const shared = sharedInterests(member.interests, conversation.otherInterests);
  if (shared[0]) ideas.push(`You both like ${shared[0]}: a natural next topic if this one runs out.`);
  return `For your reply to ${name}:\n${list(ideas)}`;
}

const SAFETY = [
  'Keep chatting in HeartSync until you feel sure: it lets you block and report at any time.',
  'Never send money or share bank details, however good the story.',
  'Meet the first time in a busy public place, tell a friend where you are, and get there on your own.',
  'A video call before meeting is a good way to check someone is who they say they are.',
];

/** The coach's answer to a question (labelled). */
export function answerAsCoach(input: CoachInput): string {
  const { member, conversation } = input;
  const topic = findCoachTopic(input.question);
  const goals = member.relationshipGoals?.trim();
  let body: string;
  switch (topic) {
    case 'safety':
      body = `Your safety comes first:\n${list(SAFETY)}`;
      break;
    case 'reply':
      body = replyIdeas(member, conversation);
      break;
    case 'opener':
    case 'conversation':
      body = `Some openers${conversation?.otherName ? ` for ${conversation.otherName}` : ''}:\n${list(openers(member, conversation))}`;
      break;
    case 'engaging':
      body = `To keep a conversation going:\n${list([
        'Ask open questions and follow up on the answer instead of changing topic.',
        'Share something of your own after each question, so it is a conversation, not an interview.',
        'Suggest a next step when it flows: a game, a call, or meeting up.',
        ...(conversation
          ? openers(member, conversation)
              .slice(0, 1)
              .map((o) => `A fresh topic: ${o}`)
          : []),
      ])}`;
      break;
    case 'bio':
      body = `For your bio:\n${list(bioTips(member))}`;
      break;
    case 'photos':
      body = `For your photos:\n${list(photoTips(member))}`;
      break;
    case 'highlight':
      body = `What to highlight:\n${list([
        member.career
          ? `What you do (${member.career}) in one line, and what you like about it.`
          : 'What fills your days and what you like about it.',
        member.interests.length > 0
          ? `Your interests (${joinNames(member.interests.slice(0, 3))}) with one detail each.`
          : 'Two or three interests, each with one detail.',
        goals
          ? `What you are looking for (${goals}): it saves both of you time.`
          : 'What you are looking for: it saves both of you time.',
      ])}`;
      break;
    case 'stand-out':
    case 'profile':
      body = `To make your profile stand out:\n${list([...bioTips(member).slice(0, 2), ...photoTips(member).slice(0, 1)])}`;
      break;
    default:
      body = `Some dating advice:\n${list([
        'Be specific: details make you memorable, generic lines make you blend in.',
        'Reply within a day when you are interested; momentum matters.',
        goals
          ? `Look for people who want ${goals} too, and say so early.`
          : 'Know what you are looking for and say it early.',
        'Rejection is part of it for everyone: it says little about you.',
      ])}`;
  }
  return `${COACH_LABEL}\n\n${body}`;
}

/**
 * A reply the member could send as it is, for the Wingman's draft when no model is configured: built from
 * the other member's last message (a question is answered with an invitation to say more) and what both
 * share. A text the member turned down before (`avoid`) is not offered again while another is left.
 */
export function draftReplyAsCoach(
  member: CoachMember,
  conversation: CoachConversation,
  avoid: readonly string[] = [],
): string {
  const last = [...conversation.lastMessages].reverse().find((m) => !m.fromMe);
  const asked = last ? /\?\s*$/.test(last.text.trim()) : false;
  const shared = sharedInterests(member.interests, conversation.otherInterests)[0];
  const candidates = [
    ...(asked ? ["Good question! I'd love to tell you more. What made you ask?"] : []),
    ...(shared ? [`I saw you like ${shared} too. What got you into it?`] : []),
    'That sounds lovely! Tell me more, what was the best part?',
    'Ha, I like that. What are you up to this weekend?',
    'I was hoping you would write! How is your week going so far?',
  ];
  const turnedDown = new Set(avoid.map((a) => a.trim().toLowerCase()));
  return candidates.find((c) => !turnedDown.has(c.toLowerCase())) ?? candidates[0]!;
}
