// What a form save writes: only the columns the member changed since the form took its version (decision 0071).

/**
 * The columns whose value differs between two versions of a form: a save writes only what the member changed
 * since the form took its version, so a change the row got meanwhile (another device, a write of the server,
 * a form that followed an older copy) is never undone by a value the member did not touch.
 */
export function changedColumns<V>(before: Record<string, V>, after: Record<string, V>): Record<string, V> {
  const changed: Record<string, V> = {};
  for (const [name, value] of Object.entries(after)) if (before[name] !== value) changed[name] = value;
  return changed;
}
