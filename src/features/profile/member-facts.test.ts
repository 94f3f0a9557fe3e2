import { describe, expect, it } from 'vitest';
import { formatHeight, getMemberFacts } from './member-facts.ts';

describe('formatHeight', () => {
  it('says centimetres as whole numbers', () => {
    expect(formatHeight('170', 'cm')).toBe('170 cm');
    expect(formatHeight(181.6, 'cm')).toBe('182 cm');
  });
  it('says feet as feet and inches', () => {
    expect(formatHeight('5.5', 'ft')).toBe('5′ 6″');
    expect(formatHeight(6, 'ft')).toBe('6′ 0″');
    expect(formatHeight('5.99', 'ft')).toBe('6′ 0″');
  });
  it('leaves out what is missing or unreadable', () => {
    expect(formatHeight(null, 'cm')).toBeUndefined();
    expect(formatHeight('', 'cm')).toBeUndefined();
    expect(formatHeight('tall', 'cm')).toBeUndefined();
    expect(formatHeight('0', 'cm')).toBeUndefined();
  });
});

describe('getMemberFacts', () => {
  it('puts codes in words, in order, and leaves out empty facts', () => {
    expect(
      getMemberFacts({
        career: ' Architect ',
        education_level: 'master',
        height: '168',
        height_unit: 'cm',
        languages: ['English', ' ', 'French'],
        relationship_goals: 'long-term',
      }),
    ).toEqual([
      { kind: 'work', text: 'Architect' },
      { kind: 'education', text: "Master's degree" },
      { kind: 'height', text: '168 cm' },
      { kind: 'languages', text: 'English, French' },
      { kind: 'goal', text: 'Long-term relationship' },
    ]);
  });
  it('is empty for a member who filled in none', () => {
    expect(
      getMemberFacts({
        career: '  ',
        education_level: null,
        height: null,
        height_unit: null,
        languages: [],
        relationship_goals: null,
      }),
    ).toEqual([]);
  });
});
