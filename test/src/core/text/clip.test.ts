import { describe, expect, it } from 'vitest';
import { compactDelta, isUnchanged } from '../../../../src/core/digest/delta.ts';
import { labelsFor } from '../../../../src/core/digest/labels.ts';
import { fit, leadSentences } from '../../../../src/core/text/clip.ts';
import { escapeMarkdown, neutralizeMentions } from '../../../../src/core/reply.ts';
import { digestWindow, localDate, zonedTime } from '../../../../src/core/digest/window.ts';
import { LIVE_MENTION } from '../digest/build.ts';

describe('neutralizeMentions', () => {
  it('defuses @everyone, @here, user, role and channel mentions and leaves other text alone', () => {
    const out = neutralizeMentions('hi @everyone @HERE <@123> <@!456> <@&789> <#1011> a@b.c x < y');
    expect(out).not.toMatch(LIVE_MENTION);
    expect(out.replace(/\u200b/g, '')).toBe('hi @everyone @HERE <@123> <@!456> <@&789> <#1011> a@b.c x < y');
    expect(neutralizeMentions(out)).toBe(out);
  });
});

describe('escapeMarkdown', () => {
  it('escapes markdown but keeps LaTeX readable', () => {
    expect(escapeMarkdown('*A* _b_ ~~c~~ `d` |e| $\\epsilon_{low}$ \\_x')).toBe(
      '\\*A\\* \\_b\\_ \\~\\~c\\~\\~ \\`d\\` \\|e\\| $\\epsilon\\_{low}$ \\\\\\_x',
    );
    expect(escapeMarkdown('$\\mathcal{O}(n)$')).toBe('$\\mathcal{O}(n)$');
  });
});

describe('fit', () => {
  it('cuts to the length with an ellipsis and never splits a surrogate pair', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('abc', 3)).toBe('abc');
    expect(fit('a🚀🚀🚀', 4)).toBe('a🚀…');
    expect(fit('a🚀🚀🚀', 3)).toBe('a…');
  });
});

describe('leadSentences', () => {
  it('takes one or two sentences without splitting on abbreviations or decimals', () => {
    expect(leadSentences('We study GRPO, e.g. its clipping, on Qwen2.5 models.  It works.\nThird sentence here.')).toBe(
      'We study GRPO, e.g. its clipping, on Qwen2.5 models. It works.',
    );
    expect(leadSentences(`Short one. ${'Long '.repeat(100)}.`)).toBe('Short one.');
    expect(leadSentences('第一句。第二句！第三句。')).toBe('第一句。第二句！');
  });
});

describe('compactDelta', () => {
  const axes = labelsFor('en').deltaAxes;
  it('keeps only changed axes, in the fixed order', () => {
    expect(
      compactDelta(
        {
          kl_term: 'removed',
          clipping: 'changed: decoupled ε_low/ε_high',
          reward_type: 'Unchanged.',
          advantage_normalization: 'same as GRPO',
        },
        axes,
        { max: 300 },
      ),
    ).toBe('clipping: changed: decoupled ε_low/ε_high · KL: removed');
    expect(compactDelta({ clipping: 'unchanged', kl_term: '不变' }, axes, { max: 300 })).toBeUndefined();
    expect(compactDelta(undefined, axes, { max: 300 })).toBeUndefined();
  });
  it('labels every axis the summariser writes, in its place (GSPO\'s sequence-level ratio reads "importance sampling")', () => {
    const gspo = {
      sampling_filtering: 'changed: drops stale groups',
      importance_sampling_level: 'changed: sequence-level ratio',
      clipping: 'changed: clips whole sequences',
    };
    expect(compactDelta(gspo, axes, { max: 300 })).toBe(
      'clipping: changed: clips whole sequences · importance sampling: changed: sequence-level ratio · sampling: changed: drops stale groups',
    );
    expect(compactDelta(gspo, labelsFor('zh').deltaAxes, { max: 300 })).toContain(
      '重要性采样: changed: sequence-level ratio',
    );
  });
  it('recognises "unchanged" however it is written, and nothing else', () => {
    for (const v of ['unchanged', 'Same as GRPO.', 'N/A', '—', '无变化', 'none']) expect(isUnchanged(v), v).toBe(true);
    expect(isUnchanged('token-level normalisation instead of per-sequence')).toBe(false);
  });
});

describe('digest window', () => {
  it('turns a local post time into an instant across time zones and DST', () => {
    expect(zonedTime('2026-11-21', '09:00', 'Asia/Shanghai').toISOString()).toBe('2026-11-21T01:00:00.000Z');
    expect(zonedTime('2026-07-01', '09:00', 'America/New_York').toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(zonedTime('2026-12-01', '09:00', 'America/New_York').toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(zonedTime('2026-11-21', '09:00', 'Not/AZone').toISOString()).toBe('2026-11-21T09:00:00.000Z');
    expect(localDate(new Date('2026-11-21T20:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-22');
  });

  it('starts at the last digest, or one cadence period back when there is none', () => {
    const now = new Date('2026-11-21T09:00:00Z');
    const last = new Date('2026-11-20T09:00:00Z');
    expect(digestWindow({ cadence: 'daily', timezone: 'UTC', postTime: '09:00', lastDigestAt: last }, { now })).toEqual(
      { date: '2026-11-21', since: last, until: now },
    );
    expect(
      digestWindow(
        { cadence: 'weekly', timezone: 'UTC', postTime: '09:00', lastDigestAt: null },
        { now },
      ).since.toISOString(),
    ).toBe('2026-11-14T09:00:00.000Z');
    const past = digestWindow(
      { cadence: 'daily', timezone: 'Asia/Shanghai', postTime: '08:30', lastDigestAt: now },
      { now, date: '2026-11-10' },
    );
    expect(past).toEqual({
      date: '2026-11-10',
      since: new Date('2026-11-09T00:30:00Z'),
      until: new Date('2026-11-10T00:30:00Z'),
    });
  });
});
