// The rule by which a profile form follows its row on the device (useFollowRow in profile-fields.tsx).

/**
 * One step of useFollowRow, on the form as React applies it: a form still equal to the row's previous version
 * (`previous`, as JSON) takes the row's new version; an edited one stays (its base stays the version it took).
 */
export function followRow<T>(form: T, previous: string, synced: T): { form: T; taken: boolean } {
  if (JSON.stringify(form) === previous) return { form: synced, taken: true };
  return { form, taken: false };
}
