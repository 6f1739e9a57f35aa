import { describe, expect, it } from 'vitest';
import { nextDigest } from '../../../../src/core/delivery/next.ts';
import { dueDigestKey } from '../../../../src/core/delivery/schedule.ts';
import {
  canonicalZone,
  parseChannelRef,
  parseDigestSettings,
  parsePostTime,
  parseTopics,
} from '../../../../src/core/delivery/settings.ts';
import { UserFacingError } from '../../../../src/core/errors.ts';

describe('digest settings', () => {
  it('reads 24-hour times and rejects anything else', () => {
    expect(parsePostTime('9:05')).toBe('09:05');
    expect(parsePostTime(' 23:59 ')).toBe('23:59');
    for (const bad of ['24:00', '9', '09:60', '9am', '09:00:00', '']) expect(parsePostTime(bad), bad).toBeUndefined();
  });

  it("spells time zones the runtime's way", () => {
    expect(canonicalZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalZone('UTC')).toBe('UTC');
    expect(canonicalZone('Mars/Base')).toBeUndefined();
  });

  it('reads topic lists, with all or nothing meaning every topic', () => {
    expect(parseTopics('algorithm, #math-code algorithm')).toEqual(['algorithm', 'math-code']);
    expect(parseTopics('all')).toEqual([]);
    expect(parseTopics('')).toEqual([]);
    expect(() => parseTopics('algorithm,foo,bar')).toThrow(/Unknown topics: foo, bar/);
  });

  it('reads a channel typed as a mention, #name or raw id', () => {
    expect(parseChannelRef('<#123>')).toBe('123');
    expect(parseChannelRef('#papers')).toBe('papers');
    expect(parseChannelRef('123')).toBe('123');
    expect(() => parseChannelRef('two words')).toThrow(UserFacingError);
  });

  it('fills defaults and checks the ranges whatever the client sent', () => {
    expect(parseDigestSettings({ time: '9:00', timezone: 'UTC' })).toEqual({
      postTime: '09:00',
      timezone: 'UTC',
      cadence: 'daily',
      weekday: null,
      topics: [],
      language: 'en',
      maxPapers: 10,
      minScore: 0,
      quietDay: 'nothing',
      pingRoleId: null,
      threadPerPaper: false,
      headerImage: false,
    });
    expect(
      parseDigestSettings({ time: '9:00', timezone: 'UTC', cadence: 'weekly', header_image: true }).headerImage,
    ).toBe(true);
    expect(() => parseDigestSettings({ time: '9:00', timezone: 'UTC', header_image: true })).toThrow(
      /header_image is for weekly digests: add cadence:weekly/,
    );
    expect(parseDigestSettings({ time: '9:00', timezone: 'UTC', cadence: 'weekly' }).weekday).toBe(1);
    expect(parseDigestSettings({ time: '9:00', timezone: 'UTC', ping_role: '<@&42>' }).pingRoleId).toBe('42');
    expect(() => parseDigestSettings({ time: '9:00', timezone: 'UTC', max: 26 })).toThrow(/1 to 25/);
    expect(() => parseDigestSettings({ time: '9:00', timezone: 'UTC', cadence: 'weekly', weekday: 7 })).toThrow(
      /0 \(Sunday\) to 6/,
    );
    expect(() => parseDigestSettings({ time: '9:00', timezone: 'UTC', ping_role: 'everyone' })).toThrow(/role/);
  });
});

describe('nextDigest', () => {
  const berlin = { postTime: '09:00', timezone: 'Europe/Berlin', cadence: 'daily', weekday: null };

  it("is today's post time when it is still ahead", () => {
    const now = new Date('2026-11-21T06:00:00Z'); // 07:00 in Berlin
    expect(nextDigest(berlin, now, false)).toEqual({
      at: new Date('2026-11-21T08:00:00Z'),
      date: '2026-11-21',
      late: false,
    });
  });

  it("is late (the next job run) when the post time passed and today's digest is not out, like dueDigestKey", () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(nextDigest(berlin, now, false)).toMatchObject({ date: '2026-11-21', late: true });
    expect(dueDigestKey(berlin, now)).toBe('2026-11-21');
    expect(nextDigest(berlin, now, true)).toEqual({
      at: new Date('2026-11-22T08:00:00Z'),
      date: '2026-11-22',
      late: false,
    });
  });

  it('finds the weekday of weekly digests, across a DST change', () => {
    const weekly = { postTime: '09:00', timezone: 'America/New_York', cadence: 'weekly', weekday: 1 };
    const now = new Date('2026-10-29T12:00:00Z'); // Thursday; DST ends on Sunday 2026-11-01
    expect(nextDigest(weekly, now, false)).toEqual({
      at: new Date('2026-11-02T14:00:00Z'),
      date: '2026-11-02',
      late: false,
    });
  });
});
