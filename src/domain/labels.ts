// Human words for the codes the data model stores (issue 20: "its-complicated" and "Up to under 5 km" on screen).
// Every screen shows codes through getLabel; the stored values never change.

const LABELS: Readonly<Record<string, string>> = {
  // genders
  woman: 'Woman',
  man: 'Man',
  'non-binary': 'Non-binary',
  other: 'Other',
  // relationship goals
  'long-term': 'Long-term relationship',
  'short-term': 'Short-term dating',
  marriage: 'Marriage',
  friendship: 'Friendship',
  casual: 'Something casual',
  'not-sure': 'Not sure yet',
  // relationship status
  single: 'Single',
  divorced: 'Divorced',
  separated: 'Separated',
  widowed: 'Widowed',
  'its-complicated': "It's complicated",
  // education
  'high-school': 'High school',
  'trade-school': 'Trade school',
  'some-college': 'Some college',
  associate: 'Associate degree',
  bachelor: "Bachelor's degree",
  master: "Master's degree",
  doctorate: 'Doctorate',
  // distance bands (as a limit)
  'under 5 km': 'Within 5 km',
  '5-10 km': 'Within 10 km',
  '10-25 km': 'Within 25 km',
  '25-50 km': 'Within 50 km',
  '50-100 km': 'Within 100 km',
  '100+ km': 'Any distance',
};

/** The words for a stored code; an unknown code reads as itself, capitalised, dashes as spaces. */
export function getLabel(code: string): string {
  const known = LABELS[code];
  if (known) return known;
  const words = code.replace(/-/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
