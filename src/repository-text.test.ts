import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository speaks only of itself (docs/decisions/035-docs-product-reference.md): its code,
 * tests, scripts and documents cite the product reference's sections (`docs/product/<file>.md §N`)
 * and the decisions (`docs/decisions/NNN-….md`), never a tracker, a work log or a path on one
 * machine that a reader of the repository cannot open; and every such citation resolves.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Folders that hold no text of ours: installed, built, generated or run-time files. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', '.tmp', 'data', 'backups', 'test-results', 'playwright-report', 'generated']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|sql|py|sh|css|html|ya?ml)$|^run$/;

/** Every text file of ours, as a path relative to the root, with its text. */
function textFiles(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel);
      } else if (TEXT.test(entry.name) && entry.name !== 'package-lock.json') {
        out.push({ file: rel, text: readFileSync(path.join(ROOT, rel), 'utf8') });
      }
    }
  };
  walk('');
  return out;
}
const files = textFiles();

/** `file:line: text` of each line of `files` that `pattern` (global) matches, where `applies` holds. */
function linesMatching(pattern: RegExp, applies: (file: string) => boolean = () => true): string[] {
  return files.filter((f) => applies(f.file)).flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (line.match(pattern) ? [`${file}:${i + 1}: ${line.trim().slice(0, 160)}`] : [])),
  );
}

// Each pattern is written so that its own source text does not match it (this file is scanned too).
const OUTSIDE: { what: string; pattern: RegExp; applies?: (file: string) => boolean; instead: string }[] = [
  { what: 'tracker items', pattern: /\bissues? ?#?\d+|\bstops? \d+\b/i, instead: 'the product reference section, the decision or the test it means' },
  { what: 'other work sharing the machine', pattern: /\bother\s+agents?\b|\bhelper\s+["“]/i, instead: 'what was measured, and under what load' },
  { what: 'lock files outside the repository', pattern: /\bflock\s+\//, instead: '`flock .tmp/bench.lock` (bench/investigations/README.md)' },
  { what: 'documents outside the repository', pattern: /\b(?:DESIGN|SPEC)\.md\b/, instead: 'docs/product/… (docs/product/CITATIONS.md maps the old sections)' },
  {
    what: 'sections of documents outside the repository',
    pattern: /\b(?:DESIGN|SPEC) §\d/,
    applies: (f) => f !== 'docs/product/CITATIONS.md',
    instead: 'the section of docs/product/ that docs/product/CITATIONS.md maps it to',
  },
  { what: 'folders on one machine', pattern: /\/work\/(?:main|wt|shared)\b/, instead: 'a path inside the repository' },
  { what: 'temporary paths in documents', pattern: /(?<![.\w])\/tmp\//, applies: (f) => f.endsWith('.md'), instead: 'a path inside the repository (e.g. .tmp/)' },
];

describe('the repository speaks only of itself', () => {
  it('finds its text files', () => {
    // A walk that finds nothing would pass every check below.
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['README.md', 'src/repository-text.test.ts', 'docs/decisions/README.md', 'bench/run.ts']));
  });

  for (const { what, pattern, applies, instead } of OUTSIDE) {
    it(`cites no ${what}; writes ${instead} instead`, () => {
      expect(linesMatching(pattern, applies)).toEqual([]);
    });
  }

  it('catches what it is meant to catch', () => {
    const caught = (...pieces: string[]) => OUTSIDE.filter((o) => o.pattern.test(pieces.join(''))).map((o) => o.what);
    // Each sample is joined from pieces, so that this file's text holds none of them whole.
    expect(caught('// the budget of iss', 'ue 33')).toEqual(['tracker items']);
    expect(caught('(Issue', ' #12 item 4)')).toEqual(['tracker items']);
    expect(caught("(st", "op 38's CI failure)")).toEqual(['tracker items']);
    expect(caught('the machine was shared with four other ', 'agents')).toEqual(['other work sharing the machine']);
    expect(caught('## Amendment (helper', ' "scale")')).toEqual(['other work sharing the machine']);
    expect(caught('run it under `flo', 'ck /var/bench.lock`')).toEqual(['lock files outside the repository']);
    expect(caught('see ../shared/DES', 'IGN.md §7.9')).toEqual(['documents outside the repository']);
    expect(caught('(SP', 'EC §5 Crew)')).toEqual(['sections of documents outside the repository']);
    expect(caught('cd /work', '/main && npm ci')).toEqual(['folders on one machine']);
    expect(caught('no WCAG A/AA issue; stop the app first; /work/{ticketId}; flock .tmp/bench.lock')).toEqual([]);
  });
});

const DECISIONS = readdirSync(path.join(ROOT, 'docs/decisions')).filter((f) => /^\d{3}-.*\.md$/.test(f));
const PRODUCT_FILES = new Set(readdirSync(path.join(ROOT, 'docs/product')).filter((f) => f.endsWith('.md')));
/** The numbered sections of a product reference file: the ids of its `<a id="N">` anchors. */
const sectionsOf = (file: string) => new Set([...readFileSync(path.join(ROOT, 'docs/product', file), 'utf8').matchAll(/<a id="([\d.]+)"><\/a>/g)].map((m) => m[1]));

describe('every citation resolves', () => {
  it('names decision files that exist', () => {
    const missing = linesMatching(/\b\d{3}-[a-z0-9-]+\.md\b/g).filter((l) =>
      [...l.matchAll(/\b(\d{3}-[a-z0-9-]+\.md)\b/g)].some((m) => !DECISIONS.includes(m[1])),
    );
    expect(missing).toEqual([]);
  });

  it('cites decision numbers that exist', () => {
    const numbers = new Set(DECISIONS.map((f) => f.slice(0, 3)));
    // "decision 044", "decisions 013, 028 and 060", "decision 034 amended".
    const cited = /\b[Dd]ecisions? ((?:\d{3}(?:, | and | or |\/|–))*\d{3})\b/g;
    const missing = linesMatching(cited).filter((l) => [...l.matchAll(cited)].some((m) => m[1].match(/\d{3}/g)!.some((n) => !numbers.has(n))));
    expect(missing).toEqual([]);
  });

  it('names files of bench/ and docs/ that exist', () => {
    // `bench/investigations/map.ts`, `docs/product/rules.md`; `NNN-…` is the decisions' pattern.
    const named = /\b(?:bench|docs)\/[\w./-]+\.(?:ts|md|mjs)\b/g;
    const missing = linesMatching(named).filter((l) => [...l.matchAll(named)].some((m) => !m[0].includes('NNN') && !existsSync(path.join(ROOT, m[0]))));
    expect(missing).toEqual([]);
  });

  it('cites product reference sections that exist', () => {
    // `docs/product/rules.md §4.1`, `[rules.md](rules.md) §4.1`, `rules.md §4.1–§4.4`, `§6, §7`.
    const cited = /\b([a-z-]+\.md)\)? (§\d+(?:\.\d+)?(?:(?:–|, | and | \/ )§\d+(?:\.\d+)?)*)/g;
    const sections = new Map([...PRODUCT_FILES].map((f) => [f, sectionsOf(f)]));
    const missing = linesMatching(cited).filter((l) =>
      [...l.matchAll(cited)].some((m) => sections.has(m[1]) && m[2].match(/\d+(?:\.\d+)?/g)!.some((n) => !sections.get(m[1])!.has(n))),
    );
    expect(missing).toEqual([]);
  });

  it('finds citations to check', () => {
    expect(linesMatching(/docs\/product\/[a-z-]+\.md §\d/).length).toBeGreaterThan(300);
    expect(existsSync(path.join(ROOT, 'docs/decisions/README.md'))).toBe(true);
  });
});
