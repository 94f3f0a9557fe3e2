import { describe, expect, it } from 'vitest';
import {
  ARTICLES,
  TOPICS,
  getArticle,
  getArticles,
  getReadingMinutes,
  getRelated,
  isTopicId,
  type Article,
} from './articles.ts';

describe('the Dating Resources library', () => {
  it('gives every guide a unique address-safe slug, a known topic and some words', () => {
    const slugs = ARTICLES.map((a) => a.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const a of ARTICLES) {
      expect(a.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(isTopicId(a.topic)).toBe(true);
      expect(a.title.trim()).not.toBe('');
      expect(a.summary.trim()).not.toBe('');
      expect(a.sections.some((s) => (s.paragraphs?.length ?? 0) + (s.list?.length ?? 0) > 0)).toBe(true);
    }
  });

  it('has guides in every topic, and points only at guides that exist, never at the guide itself', () => {
    for (const t of TOPICS) expect(getArticles(t.id).length, t.id).toBeGreaterThan(0);
    for (const a of ARTICLES) {
      expect(a.related.length, a.slug).toBeGreaterThan(0);
      for (const slug of a.related) {
        expect(getArticle(slug), `${a.slug} -> ${slug}`).toBeDefined();
        expect(slug).not.toBe(a.slug);
      }
      expect(getRelated(a).map((r) => r.slug)).toEqual(a.related);
    }
  });

  it('looks guides up by slug and topic', () => {
    expect(getArticle('meeting-safely')?.topic).toBe('safety');
    expect(getArticle('no-such-guide')).toBeUndefined();
    expect(getArticle('')).toBeUndefined();
    expect(getArticles().length).toBe(ARTICLES.length);
    expect(getArticles('safety').every((a) => a.topic === 'safety')).toBe(true);
    expect(isTopicId('safety')).toBe(true);
    expect(isTopicId('Safety')).toBe(false);
    expect(isTopicId(null)).toBe(false);
  });

  it('counts reading time at 200 words a minute, rounded up, at least one', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
    const article = (n: number): Article => ({
      slug: 'x',
      title: 'Title',
      topic: 'safety',
      summary: 's',
      sections: [{ paragraphs: [words(n)] }],
      related: [],
    });
    expect(getReadingMinutes(article(0))).toBe(1);
    expect(getReadingMinutes(article(199))).toBe(1); // with the title's word: 200
    expect(getReadingMinutes(article(200))).toBe(2);
    expect(getReadingMinutes(article(599))).toBe(3);
    for (const a of ARTICLES) expect(getReadingMinutes(a)).toBeGreaterThanOrEqual(1);
  });

  it('links nowhere outside the app: a guide reads whole offline', () => {
    for (const a of ARTICLES) {
      const text = JSON.stringify(a);
      expect(text, a.slug).not.toMatch(/https?:\/\/|@\w+\.\w+/);
    }
  });
});
