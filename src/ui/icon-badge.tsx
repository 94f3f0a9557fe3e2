// A round badge holding an icon, beside what it stands for (a notification, a count on the dashboard, a blocked
// member): in the brand's colour while something waits, quiet otherwise. Decorative: the words beside it say
// the same.
import type { LucideIcon } from 'lucide-react';

export function IconBadge({ icon: Icon, active }: { icon: LucideIcon; active: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`flex size-10 shrink-0 items-center justify-center rounded-full ${
        active ? 'bg-primary text-primary-fg' : 'bg-subtle text-muted'
      }`}
    >
      <Icon className="size-5" />
    </span>
  );
}
