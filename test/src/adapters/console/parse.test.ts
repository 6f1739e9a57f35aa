import { describe, expect, it } from 'vitest';
import { findCommand } from '../../../../commands/index.ts';
import { parseCommandLine, parsePressLine } from '../../../../src/adapters/console/parse.ts';
import { renderReply } from '../../../../src/adapters/console/render.ts';
import { UserFacingError } from '../../../../src/core/errors.ts';

describe('parseCommandLine', () => {
  it('reads a subcommand and options typed as in Discord', () => {
    const p = parseCommandLine('/paper search query:group relative policy limit:3', findCommand);
    expect(p.command.definition.name).toBe('paper');
    expect(p.subcommand).toBe('search');
    expect(p.options).toEqual({ query: 'group relative policy', limit: '3' });
  });

  it('refuses an option given twice instead of keeping the last one', () => {
    expect(() => parseCommandLine('/paper search query:grpo query:dapo', findCommand)).toThrow(
      /query: is given twice\. Give it once/,
    );
  });

  it('keeps colons inside a value that are not option names', () => {
    const p = parseCommandLine('/paper show id:https://arxiv.org/abs/2507.18071', findCommand);
    expect(p.options).toEqual({ id: 'https://arxiv.org/abs/2507.18071' });
  });

  it('removes surrounding quotes', () => {
    expect(parseCommandLine('/paper search query:"KL penalty"', findCommand).options).toEqual({ query: 'KL penalty' });
  });

  it("keeps a quote that belongs to the value: escaped, or the value's quotes doubled", () => {
    const query = (line: string) => parseCommandLine(line, findCommand).options.query;
    expect(query('/paper search query:"\\"entropy collapse\\""')).toBe('"entropy collapse"');
    expect(query('/paper search query:\\"entropy collapse\\" in GRPO limit:2')).toBe('"entropy collapse" in GRPO');
    expect(query('/paper search query:""entropy collapse""')).toBe('""entropy collapse""');
    expect(query('/paper search query:"entropy collapse" -survey')).toBe('"entropy collapse" -survey');
    expect(query('/paper search query:"entropy" and "collapse"')).toBe('"entropy" and "collapse"');
  });

  it('rejects an unknown command with a pointer to /help', () => {
    expect(() => parseCommandLine('/papers', findCommand)).toThrow(/Unknown command \/papers.*\/help/);
  });

  it('refuses a misspelled or unknown option instead of folding it into the previous value', () => {
    expect(() => parseCommandLine('/paper search query:GSPO lmit:3', findCommand)).toThrow(
      'Unknown option `lmit`; options of /paper search: query, limit, page. Did you mean `limit:`?',
    );
    expect(() => parseCommandLine('/paper latest count:3 extra:1', findCommand)).toThrow(
      /Unknown option `extra`; options of \/paper latest: count, all\.$/,
    );
    // Colons that are not options: a URL, arXiv:<id>, a heading in capitals, a ratio.
    expect(
      parseCommandLine(
        '/paper search query:see https://arxiv.org/abs/2507.18071 arXiv:2507.18071 GRPO: a survey 1:2 limit:2',
        findCommand,
      ).options,
    ).toEqual({ query: 'see https://arxiv.org/abs/2507.18071 arXiv:2507.18071 GRPO: a survey 1:2', limit: '2' });
    // Quoted, a lower-case word:value stays in the value.
    expect(parseCommandLine('/paper search query:"loss_type:dr_grpo in TRL" limit:2', findCommand).options).toEqual({
      query: 'loss_type:dr_grpo in TRL',
      limit: '2',
    });
  });

  it('names a wrong subcommand and suggests the closest', () => {
    expect(() => parseCommandLine('/digest stat', findCommand)).toThrow(
      '/digest has no subcommand `stat`. Did you mean /digest status? Subcommands: setup, preview, now, off, status.',
    );
  });

  it('tells a newcomer typing quit or help without the slash what to type', () => {
    expect(() => parseCommandLine('quit', findCommand)).toThrow('To leave the console, type /quit (or press Ctrl-D).');
    expect(() => parseCommandLine('exit', findCommand)).toThrow(/type \/quit/);
    expect(() => parseCommandLine('help', findCommand)).toThrow(/type \/help/i);
    expect(() => parseCommandLine('/papr show id:1', findCommand, ['paper', 'ask'])).toThrow(
      'Unknown command /papr. Did you mean /paper? Type /help to see the commands.',
    );
  });

  it('explains the name:value form when an option has no name', () => {
    expect(() => parseCommandLine('/paper search GSPO', findCommand)).toThrow(UserFacingError);
    expect(() => parseCommandLine('/paper search GSPO', findCommand)).toThrow(/query:/);
  });
});

describe('parsePressLine', () => {
  it('reads the custom id of a press, with or without brackets', () => {
    expect(parsePressLine('/press paper:page:u1:AbC:2')).toBe('paper:page:u1:AbC:2');
    expect(parsePressLine('/press [paper:random:u1:*]')).toBe('paper:random:u1:*');
    expect(parsePressLine('/paper search query:x')).toBeUndefined();
    expect(() => parsePressLine('/press ')).toThrow(UserFacingError);
  });
});

describe('renderReply', () => {
  it('shows action buttons with the /press line that presses them, and Discord timestamps as UTC', () => {
    const text = renderReply({
      content: 'next <t:1795510800:f>',
      components: [
        [
          { kind: 'action', customId: 'paper:page:u1:k:2', label: 'Next' },
          { kind: 'action', customId: 'x:y', label: 'Off', disabled: true },
        ],
      ],
    });
    expect(text).toContain('next 2026-11-24 09:00 UTC');
    expect(renderReply({ content: 'at <t:1795510800:f> (<t:1795510800:R>)' })).toBe('at 2026-11-24 09:00 UTC');
    expect(text).toContain('[Next] (/press paper:page:u1:k:2)  [Off] (disabled)');
  });

  it('shows a picture where it was saved: inside the embed that shows it, or after the embeds', () => {
    const file = (name: string) => ({
      name,
      data: new Uint8Array(),
      description: 'a picture',
      width: 1000,
      height: 800,
    });
    const reply = { embeds: [{ title: 'Tree', image: 'tree.png' }], files: [file('tree.png'), file('extra.png')] };
    const text = renderReply(reply, 4, new Map([['tree.png', '/data/pictures/tree.png']]));
    expect(text).toBe('────\n■ Tree\n\n  🖼 /data/pictures/tree.png (1000×800 PNG)\n────\n🖼 extra.png (1000×800 PNG)');
  });

  it('shows channel and role mentions as #name and @role, and one rule between two embeds', () => {
    expect(renderReply({ content: 'Digests in <#papers> ping <@&777>; DMs fall back to <#123>.' })).toBe(
      'Digests in #papers ping @777; DMs fall back to #123.',
    );
    const text = renderReply(
      {
        embeds: [
          { title: 'A', description: 'a' },
          { title: 'B', description: 'b' },
        ],
      },
      4,
    );
    expect(text).toBe('────\n■ A\n\na\n────\n■ B\n\nb\n────');
  });
});
