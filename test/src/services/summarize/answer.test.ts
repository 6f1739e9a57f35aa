import { describe, expect, it } from 'vitest';
import { readStructured } from '../../../../src/services/llm/structured.ts';
import { summaryReader } from '../../../../src/services/summarize/answer.ts';
import { neutralizeMentions, truncate } from '../../../../src/core/reply.ts';
import { GRPO_AXES } from '../../../../src/core/digest/delta.ts';
import { SUMMARY_JSON_SCHEMA, summaryContent } from '../../../../src/services/summarize/schema.ts';
import { validSummary } from '../../../helpers/fake-anthropic.ts';

const msg = (text: string, stop: 'end_turn' | 'refusal' | 'max_tokens' = 'end_turn') => ({
  content: [{ type: 'text' as const, text, citations: null }],
  stop_reason: stop,
});

describe('neutralizeMentions', () => {
  it('breaks every Discord mention form with a zero-width space', () => {
    expect(neutralizeMentions('@everyone @here @Everyone <@1> <@!22> <@&333> <#4444>')).toBe(
      '@\u200beveryone @\u200bhere @\u200bEveryone <\u200b@1> <\u200b@!22> <\u200b@&333> <\u200b#4444>',
    );
  });

  it('leaves ordinary text, e-mail addresses and comparisons alone', () => {
    const text = 'Write to a@b.org; x <5> y; @herein is not a mention';
    expect(neutralizeMentions(text)).toBe(text);
  });
});

describe('truncate', () => {
  it('keeps short text and cuts long text on a code point with an ellipsis', () => {
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncate('中文摘要很长', 4)).toBe('中文摘…');
  });
});

describe('summary schema', () => {
  it('keeps the JSON schema sent to the API in step with the zod schema', () => {
    expect([...SUMMARY_JSON_SCHEMA.required].sort()).toEqual(Object.keys(summaryContent.shape).sort());
    expect([...SUMMARY_JSON_SCHEMA.properties.grpo_delta.required].sort()).toEqual([...GRPO_AXES].sort());
  });

  it('normalises grpo_delta values to unchanged, n/a or changed: <how>', () => {
    const delta = {
      ...(validSummary('x').grpo_delta as object),
      clipping: 'Changed — clip-higher',
      kl_term: 'N/A',
      reward_type: 'Unchanged.',
    };
    const parsed = summaryContent.parse({ ...validSummary('x'), grpo_delta: delta });
    expect(parsed.grpo_delta).toMatchObject({
      clipping: 'changed: clip-higher',
      kl_term: 'n/a',
      reward_type: 'unchanged',
    });
  });

  it('rejects a delta value of another form and an empty method list', () => {
    const bad = {
      ...validSummary('x'),
      method: [],
      grpo_delta: { ...(validSummary('x').grpo_delta as object), clipping: 'maybe' },
    };
    const issues = summaryContent.safeParse(bad).error!.issues.map((i) => i.path.join('.'));
    expect(issues.sort()).toEqual(['grpo_delta.clipping', 'method']);
  });
});

describe('reading a summary answer', () => {
  const read = (m: ReturnType<typeof msg>) => readStructured(m, summaryReader(''));

  it('returns validated, sanitised content', () => {
    expect(read(msg(JSON.stringify({ ...validSummary('x'), tldr: 'ping @everyone' })))).toMatchObject({
      ok: true,
      value: { tldr: 'ping @\u200beveryone' },
    });
  });

  it('accepts JSON in a Markdown fence', () => {
    expect(read(msg(`\`\`\`json\n${JSON.stringify(validSummary('x'))}\n\`\`\``)).ok).toBe(true);
  });

  it('names why an answer cannot be used, and what kind of problem it is', () => {
    const why = (m: ReturnType<typeof msg>) => {
      const a = read(m);
      return a.ok ? '' : `${a.problem} ${a.error}`;
    };
    expect(why(msg('Sure! Here is', 'end_turn'))).toMatch(/^malformed invalid JSON/);
    expect(why(msg('{"tldr":"x"}'))).toMatch(/^malformed schema mismatch: motivation/);
    expect(why(msg('I will not', 'refusal'))).toMatch(/^refused refused/);
    expect(why(msg('{"tldr":', 'max_tokens'))).toMatch(/^cut-off cut off/);
  });
});
