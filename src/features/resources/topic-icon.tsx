// Each topic of the Dating Resources library has its icon (lucide), on the library's cards and a guide's page.
import { HeartHandshake, MessageCircle, ShieldCheck, Smile, UserRound, type LucideIcon } from 'lucide-react';
import type { TopicId } from './articles.ts';

const ICONS: Record<TopicId, LucideIcon> = {
  safety: ShieldCheck,
  conversation: MessageCircle,
  dates: HeartHandshake,
  profile: UserRound,
  wellbeing: Smile,
};

export function TopicIcon({ topic, className }: { topic: TopicId; className?: string }) {
  const Icon = ICONS[topic];
  return <Icon aria-hidden="true" className={className} />;
}
