// Each game's icon (lucide), for the portal, the invitation and the cards.
import { BookOpen, Brain, Scale, Split, type LucideIcon } from 'lucide-react';

export const GAME_ICONS: Record<string, LucideIcon> = {
  'this-or-that': Split,
  'would-you-rather': Scale,
  'story-builder': BookOpen,
  'couple-quiz': Brain,
};

export function GameIcon({ type, className }: { type: string; className?: string }) {
  const Icon = GAME_ICONS[type] ?? Split;
  return <Icon aria-hidden="true" className={className ?? 'size-5'} />;
}
