import { describe, expect, it } from 'vitest';
import { findCommand } from '../../commands/index.ts';
import { parseCommandLine } from '../../src/console/parse.ts';
import { UserFacingError } from '../../src/errors.ts';

describe('parseCommandLine', () => {
  it('reads a subcommand and options typed as in Discord', () => {
    const p = parseCommandLine('/paper search query:group relative policy limit:3', findCommand);
    expect(p.command.definition.name).toBe('paper');
    expect(p.subcommand).toBe('search');
    expect(p.options).toEqual({ query: 'group relative policy', limit: '3' });
  });

  it('keeps colons inside a value that are not option names', () => {
    const p = parseCommandLine('/paper show id:https://arxiv.org/abs/2507.18071', findCommand);
    expect(p.options).toEqual({ id: 'https://arxiv.org/abs/2507.18071' });
  });

  it('removes surrounding quotes', () => {
    expect(parseCommandLine('/paper search query:"KL penalty"', findCommand).options).toEqual({ query: 'KL penalty' });
  });

  it('rejects an unknown command with a pointer to /help', () => {
    expect(() => parseCommandLine('/papers', findCommand)).toThrow(/Unknown command \/papers.*\/help/);
  });

  it('explains the name:value form when an option has no name', () => {
    expect(() => parseCommandLine('/paper search GSPO', findCommand)).toThrow(UserFacingError);
    expect(() => parseCommandLine('/paper search GSPO', findCommand)).toThrow(/query:/);
  });
});
