import { describe, expect, it } from 'vitest';
import { describeAgeRange, getDistanceText, getWhyYouMatch, parseExplanation } from './card-text.ts';

describe('getDistanceText', () => {
  it('words every band without exact distances', () => {
    expect(getDistanceText('under 5 km')).toBe('Less than 5 km away');
    expect(getDistanceText('10-25 km')).toBe('10-25 km away');
    expect(getDistanceText('100+ km')).toBe('More than 100 km away');
  });
  it('says nothing for a hidden or unknown band', () => {
    expect(getDistanceText(null)).toBeUndefined();
    expect(getDistanceText('3.2 km')).toBeUndefined();
  });
});

describe('getWhyYouMatch', () => {
  it('lists shared interests, goals and agreed answers', () => {
    const e = parseExplanation(
      '{"common_questions":10,"shared_answers":7,"shared_interests":["hiking","music","travel"],"goals_match":true}',
    );
    expect(getWhyYouMatch(e)).toEqual([
      'You both like hiking, music and travel',
      'You want the same kind of relationship',
      'You agree on 7 of 10 questions you both answered',
    ]);
  });
  it('handles one interest, nothing in common and malformed input', () => {
    expect(getWhyYouMatch({ shared_interests: ['yoga'] })).toEqual(['You both like yoga']);
    expect(getWhyYouMatch({ common_questions: 4, shared_answers: 0 })).toEqual([]);
    expect(parseExplanation('not json')).toEqual({});
    expect(parseExplanation('[1]')).toEqual({});
  });
});

describe('describeAgeRange', () => {
  it('words a range, an open end and the whole range', () => {
    expect(describeAgeRange(25, 35)).toBe('ages 25-35');
    expect(describeAgeRange(30, 30)).toBe('age 30');
    expect(describeAgeRange(25, 120)).toBe('ages 25+');
    expect(describeAgeRange(null, 40)).toBe('ages up to 40');
    expect(describeAgeRange(18, 40)).toBe('ages up to 40');
    expect(describeAgeRange(18, 120)).toBe('any age');
    expect(describeAgeRange(null, null)).toBe('any age');
  });
});
