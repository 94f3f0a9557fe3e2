// A few short words as small rounded chips in a labelled list (a member's interests on a card or a profile).

export function ChipList({ label, items }: { label: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={label}>
      {items.map((item) => (
        <li key={item} className="rounded-full border border-border px-2 py-0.5 text-xs">
          {item}
        </li>
      ))}
    </ul>
  );
}
