import { describe, expect, it } from 'vitest';
import { LARGE, MEASURED, mergeBenchmarks } from './benchmarks-file';

// docs/benchmarks.md is written by two runs and by hand: a run replaces only its own part.
describe('bench: docs/benchmarks.md, part by part', () => {
  const large = `${LARGE.start}\n## Ten years\n| row | 1 |\n${LARGE.end}`;
  const measured = `${MEASURED.start}\n## Measured for the decisions\n### 054\nfigures\n${MEASURED.end}`;
  const file = `# Benchmarks\n\n| old table |\n\n${large}\n\n${measured}\n`;

  it('an everyday run replaces the table and keeps the large section and the measured figures', () => {
    expect(mergeBenchmarks(file, { table: '# Benchmarks\n\n| new table |\n' })).toBe(`# Benchmarks\n\n| new table |\n\n${large}\n\n${measured}\n`);
  });

  it('a large run replaces its section and keeps the table and the measured figures', () => {
    const next = `${LARGE.start}\n## Ten years\n| row | 2 |\n${LARGE.end}`;
    expect(mergeBenchmarks(file, { large: next })).toBe(`# Benchmarks\n\n| old table |\n\n${next}\n\n${measured}\n`);
  });

  it('keeps the measured figures when there is no large section, and adds one after the table', () => {
    const withoutLarge = `# Benchmarks\n\n| old table |\n\n${measured}\n`;
    expect(mergeBenchmarks(withoutLarge, { table: '# Benchmarks\n\n| new |' })).toBe(`# Benchmarks\n\n| new |\n\n${measured}\n`);
    expect(mergeBenchmarks(withoutLarge, { large })).toBe(`# Benchmarks\n\n| old table |\n\n${large}\n\n${measured}\n`);
  });

  it('a file with no marked parts is all table; an empty one takes the run as it is', () => {
    expect(mergeBenchmarks('# Benchmarks\n\n| old |\n', { large })).toBe(`# Benchmarks\n\n| old |\n\n${large}\n`);
    expect(mergeBenchmarks('', { table: '# Benchmarks\n' })).toBe('# Benchmarks\n');
  });
});
