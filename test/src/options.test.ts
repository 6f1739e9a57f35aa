import { describe, expect, it } from 'vitest';
import { paper } from '../../commands/paper.ts';
import { validateOptions } from '../../src/options.ts';

const check = (subcommand: string, options: Record<string, string | number>) => () => validateOptions(paper.definition, { subcommand, options });

describe('validateOptions', () => {
  it('coerces typed text into the declared types', () => {
    expect(validateOptions(paper.definition, { subcommand: 'search', options: { query: ' GSPO ', limit: '3' } })).toEqual({ query: 'GSPO', limit: 3 });
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

  it('refuses an option the subcommand does not have and lists the ones it has', () => {
    expect(check('latest', { query: 'x' })).toThrow(/no option `query` \(options: count\)/);
  });

  it('asks for a subcommand when none is given', () => {
    expect(() => validateOptions(paper.definition, { options: {} })).toThrow(/needs a subcommand: search, show, latest/);
  });
});
