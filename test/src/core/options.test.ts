import { describe, expect, it } from 'vitest';
import { digest } from '../../../commands/digest.ts';
import { paper } from '../../../commands/paper.ts';
import { UserFacingError } from '../../../src/core/errors.ts';
import { validateOptions } from '../../../src/core/options.ts';

const check = (subcommand: string, options: Record<string, string | number>) => () =>
  validateOptions(paper.definition, { subcommand, options });

describe('validateOptions', () => {
  it('coerces typed text into the declared types', () => {
    expect(
      validateOptions(paper.definition, { subcommand: 'search', options: { query: ' GSPO ', limit: '3' } }),
    ).toEqual({ query: 'GSPO', limit: 3 });
  });

  it('refuses a missing required option and says what it is for', () => {
    expect(check('search', {})).toThrow(/needs `query`/);
  });

  it('refuses an empty query', () => {
    expect(check('search', { query: '' })).toThrow(/needs `query`/);
  });

  it('refuses a 500-character query with its length and the limit', () => {
    expect(check('search', { query: 'x'.repeat(500) })).toThrow(/too long \(500 characters; at most 300\)/);
  });

  it('refuses out-of-range and non-integer numbers', () => {
    expect(check('search', { query: 'grpo', limit: 0 })).toThrow(/between 1 and 10/);
    expect(check('search', { query: 'grpo', limit: '2.5' })).toThrow(/whole number/);
  });

  it('refuses a value no client sends (an object, null) with the type it needs, never a bug (red team)', () => {
    const object = { toString: 'x' } as unknown as string; // String() of it throws
    expect(check('search', { query: 'grpo', limit: object })).toThrow(UserFacingError);
    expect(check('search', { query: 'grpo', limit: object })).toThrow(
      '`limit` in /paper search must be a whole number.',
    );
    expect(check('show', { id: null as unknown as string })).toThrow('`id` in /paper show must be text.');
  });

  it('refuses an option the subcommand does not have and lists the ones it has', () => {
    expect(check('latest', { query: 'x' })).toThrow('Unknown option `query`; options of /paper latest: count, all.');
  });

  it('accepts a choice by its name as well as its value (weekday:monday), and lists the names when neither matches', () => {
    const setup = (weekday: string) =>
      validateOptions(digest.definition, {
        subcommand: 'setup',
        options: { channel: 'c1', time: '09:00', timezone: 'UTC', cadence: 'weekly', weekday },
      });
    expect(setup('monday').weekday).toBe(1);
    expect(setup('Sunday').weekday).toBe(0);
    expect(setup('3').weekday).toBe(3);
    expect(() => setup('someday')).toThrow(/`weekday` in \/digest setup must be one of: Sunday, Monday, Tuesday/);
  });

  it('asks for a subcommand when none is given', () => {
    expect(() => validateOptions(paper.definition, { options: {} })).toThrow(
      /needs a subcommand: search, show, cite, latest/,
    );
  });
});
