// A member's profile facts in words, as another member sees them (the public card's columns only): work,
// education, height, languages and what they are looking for. Codes become words (src/domain/labels.ts).
import { getLabel } from '../../domain/labels.ts';

export type MemberFactKind = 'work' | 'education' | 'height' | 'languages' | 'goal';

export interface MemberFact {
  kind: MemberFactKind;
  text: string;
}

export interface MemberFactsInput {
  career: string | null;
  education_level: string | null;
  height: string | number | null;
  height_unit: string | null;
  languages: readonly string[];
  relationship_goals: string | null;
}

/** "170 cm", or feet as feet and inches ("5′ 10″"); undefined when there is none or it cannot be read. */
export function formatHeight(height: string | number | null, unit: string | null): string | undefined {
  if (height === null || height === '') return undefined;
  const value = Number(height);
  if (!Number.isFinite(value) || value <= 0) return undefined;
  if (unit === 'ft') {
    let feet = Math.floor(value);
    let inches = Math.round((value - feet) * 12);
    if (inches === 12) {
      feet += 1;
      inches = 0;
    }
    return `${feet}′ ${inches}″`;
  }
  return `${Math.round(value)} cm`;
}

/** The facts a member filled in, in the order a profile shows them; empty ones are left out. */
export function getMemberFacts(p: MemberFactsInput): MemberFact[] {
  const facts: MemberFact[] = [];
  const career = p.career?.trim();
  if (career) facts.push({ kind: 'work', text: career });
  if (p.education_level) facts.push({ kind: 'education', text: getLabel(p.education_level) });
  const height = formatHeight(p.height, p.height_unit);
  if (height) facts.push({ kind: 'height', text: height });
  const languages = p.languages.map((l) => l.trim()).filter((l) => l !== '');
  if (languages.length > 0) facts.push({ kind: 'languages', text: languages.join(', ') });
  if (p.relationship_goals) facts.push({ kind: 'goal', text: getLabel(p.relationship_goals) });
  return facts;
}
