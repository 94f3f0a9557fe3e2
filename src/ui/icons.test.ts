// UI icons come from lucide-react (SVG, tree-shaken, labelled by their control): an emoji glyph renders as an
// empty box on a machine without an emoji font, so no screen may draw one as an icon.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Pictographs, dingbats and symbols used as icons (hearts, crosses, ticks, stars, the menu bars).
const ICON_GLYPH = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B50}\u{2630}\u{2190}-\u{21FF}\u{00D7}]/u;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('icons', () => {
  it('no source file under src draws an emoji or symbol glyph', () => {
    const offenders: string[] = [];
    for (const file of sources(join(import.meta.dirname, '..'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\/\*\*|\*)/.test(line)) return;
          if (ICON_GLYPH.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
