// The Wingman's low-autonomy help, pure (issue 17): conversation starters for a new match, two or three
// concrete topics drawn from what both members share (then from what the other member lists), each with an
// optional opener the member may use or change; topics the member turned down are never offered again. The
// marking an AI-written message carries (EU AI Act Art. 50), the same as the server's (0123).
import { normalizeInterest } from './compatibility.ts';

export interface StarterInput {
  /** The member's own interests, as stored. */
  mine: readonly string[];
  /** The other member's public interests. */
  theirs: readonly string[];
  /** The other member's public first name. */
  theirName: string;
  /** Topics the member gave a thumbs down (lower case). */
  turnedDown: readonly string[];
}

export interface Starter {
  /** The interest it is about, lower case (also the feedback's reference). */
  topic: string;
  /** Whether both members list it. */
  shared: boolean;
  opener: string;
}

/** At most this many starters are offered at once. */
export const MAX_STARTERS = 3;

const SHARED_OPENERS = [
  (name: string, topic: string) => `Hi ${name}! I see we both love ${topic}. What got you into it?`,
  (name: string, topic: string) => `${name}, a fellow ${topic} fan! What's your favourite thing about it?`,
  (name: string, topic: string) =>
    `Hi ${name}! ${capitalize(topic)} came up on both our profiles. Any tips for me?`,
];
const THEIR_OPENERS = [
  (name: string, topic: string) => `Hi ${name}! Your profile mentions ${topic}. How did you get into it?`,
  (name: string, topic: string) =>
    `${name}, I'd love to hear more about ${topic}. What do you enjoy most about it?`,
];

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function distinct(list: readonly string[]): string[] {
  return [...new Set(list.map(normalizeInterest).filter((s) => s !== '' && s.length <= 100))];
}

/** Two or three starters: shared interests first (in the other member's order), then theirs; never a turned-down topic. */
export function getConversationStarters(input: StarterInput): Starter[] {
  const name = input.theirName.trim() || 'there';
  const mine = new Set(distinct(input.mine));
  const down = new Set(distinct(input.turnedDown));
  const theirs = distinct(input.theirs).filter((t) => !down.has(t));
  const shared = theirs.filter((t) => mine.has(t));
  const others = theirs.filter((t) => !mine.has(t));
  const starters: Starter[] = [];
  for (const topic of shared) {
    if (starters.length >= MAX_STARTERS) break;
    const make = SHARED_OPENERS[starters.length % SHARED_OPENERS.length]!;
    starters.push({ topic, shared: true, opener: make(name, topic) });
  }
  for (const topic of others) {
    if (starters.length >= MAX_STARTERS) break;
    const make = THEIR_OPENERS[starters.length % THEIR_OPENERS.length]!;
    starters.push({ topic, shared: false, opener: make(name, topic) });
  }
  return starters;
}

/** The metadata of a message an agent wrote or drafted and the member sent unchanged (as 0123 writes it). */
export function getAiMessageMarking(agentName: string): { ai: Record<string, unknown> } {
  return { ai: { generated: true, by: 'agent', agent_name: agentName, disclosure: 'written with AI help' } };
}
