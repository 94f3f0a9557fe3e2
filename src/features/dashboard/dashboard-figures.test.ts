import { describe, expect, it } from 'vitest';
import { parseDashboardFigures, type DashboardFigures } from './dashboard-figures.ts';

const figures: DashboardFigures = {
  likes: 3,
  matches: 2,
  messages: 0,
  notifications: 5,
  firstName: 'Ann',
  completeness: { percent: 80, missing: ['bio'], next: { label: 'Write your bio', to: '/profile' } },
};

describe('parseDashboardFigures', () => {
  it('reads back what the dashboard saved, through JSON as local storage keeps it', () => {
    expect(parseDashboardFigures(JSON.parse(JSON.stringify([figures])) as unknown[])).toEqual(figures);
    const complete = {
      ...figures,
      firstName: null,
      completeness: { percent: 100, missing: [], next: undefined },
    };
    // A complete profile has no next step: JSON drops the key.
    expect(parseDashboardFigures(JSON.parse(JSON.stringify([complete])) as unknown[])).toEqual({
      ...complete,
      completeness: { percent: 100, missing: [] },
    });
  });

  it('ignores no snapshot, and one of another shape (an older version, or damaged)', () => {
    expect(parseDashboardFigures(undefined)).toBeUndefined();
    expect(parseDashboardFigures([])).toBeUndefined();
    expect(parseDashboardFigures([null])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, likes: '3' }])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, matches: -1 }])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, notifications: 1.5 }])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, messages: undefined }])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, firstName: 7 }])).toBeUndefined();
    expect(parseDashboardFigures([{ ...figures, completeness: undefined }])).toBeUndefined();
    expect(
      parseDashboardFigures([{ ...figures, completeness: { ...figures.completeness, percent: 101 } }]),
    ).toBeUndefined();
    expect(
      parseDashboardFigures([{ ...figures, completeness: { ...figures.completeness, missing: [1] } }]),
    ).toBeUndefined();
  });

  it('never follows a next step out of the app', () => {
    for (const to of ['https://example.com', '//example.com', 'javascript:alert(1)'])
      expect(
        parseDashboardFigures([
          { ...figures, completeness: { ...figures.completeness, next: { label: 'x', to } } },
        ]),
      ).toBeUndefined();
  });
});
