import { describe, expect, it } from 'vitest';
import { plausibleDay, plausibleVersion } from '../../../../src/core/papers/plausible.ts';

describe('plausibleDay', () => {
  it('keeps a real day from 1991-08-01 to tomorrow and drops everything else', () => {
    const today = '2026-11-28';
    expect(plausibleDay('2026-11-28', today)).toBe('2026-11-28');
    expect(plausibleDay('2026-11-29', today)).toBe('2026-11-29');
    expect(plausibleDay('1991-08-01', today)).toBe('1991-08-01');
    for (const bad of ['2026-11-30', '9999-12-31', '1991-07-31', '0001-01-01', '2026-02-30', '2026-13-01', 'x', ''])
      expect(plausibleDay(bad, today), bad).toBeUndefined();
    expect(plausibleDay('2026-12-31', '2026-12-30')).toBe('2026-12-31');
  });
});

describe('plausibleVersion', () => {
  it('keeps whole versions 1-99 at most 20 above the stored one', () => {
    expect(plausibleVersion(1, null)).toBe(1);
    expect(plausibleVersion(99, null)).toBe(99);
    expect(plausibleVersion(22, 2)).toBe(22);
    for (const [v, stored] of [
      [1000, null],
      [100, 90],
      [23, 2],
      [0, null],
      [-1, 3],
      [2.5, 2],
      [Number.NaN, null],
    ] as const)
      expect(plausibleVersion(v, stored), `${v} over ${stored}`).toBeUndefined();
    expect(plausibleVersion(undefined, 3)).toBeUndefined();
  });
});
