import { describe, expect, it } from 'vitest';
import { commands, findCommand } from '../../commands/index.ts';
import type { OptionDefinition } from '../../src/core/command.ts';
import { commandUsage } from '../../src/core/usage.ts';

/** Discord rejects a registration that breaks these, so check them before any registration. */
const NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;

function checkOptions(opts: readonly OptionDefinition[] = []) {
  expect(opts.length).toBeLessThanOrEqual(25);
  let seenOptional = false;
  for (const o of opts) {
    expect(o.name).toMatch(NAME);
    expect(o.description.length).toBeGreaterThan(0);
    expect(o.description.length).toBeLessThanOrEqual(100);
    if (!o.required) seenOptional = true;
    else expect(seenOptional, `required option ${o.name} after an optional one`).toBe(false);
    expect(o.choices?.length ?? 0).toBeLessThanOrEqual(25);
    if (o.autocomplete) expect(o.choices).toBeUndefined();
  }
}

describe('command definitions', () => {
  it('have unique, valid names', () => {
    const names = commands.map((c) => c.definition.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(NAME);
  });

  it('fit Discord limits on descriptions, options and subcommands', () => {
    for (const { definition: d } of commands) {
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.description.length).toBeLessThanOrEqual(100);
      checkOptions(d.options);
      for (const s of d.subcommands ?? []) {
        expect(s.name).toMatch(NAME);
        expect(s.description.length).toBeLessThanOrEqual(100);
        checkOptions(s.options);
      }
    }
  });

  it('offer autocomplete only on commands that implement it', () => {
    for (const c of commands) {
      const opts = [
        ...(c.definition.options ?? []),
        ...(c.definition.subcommands ?? []).flatMap((s) => s.options ?? []),
      ];
      if (opts.some((o) => o.autocomplete)) expect(c.autocomplete).toBeTypeOf('function');
    }
  });

  it("lists the bot's commands, with /digest for managers by default", () => {
    expect(commands.map((c) => c.definition.name)).toEqual([
      'paper',
      'compare',
      'ask',
      'digest',
      'queue',
      'subscribe',
      'unsubscribe',
      'subscriptions',
      'topics',
      'family',
      'trends',
      'status',
      'help',
    ]);
    expect(findCommand('family')!.definition.subcommands!.map((s) => s.name)).toEqual(['show', 'list', 'tree']);
    expect(findCommand('queue')!.definition.subcommands!.map((s) => s.name)).toEqual([
      'vote',
      'add',
      'show',
      'next',
      'done',
      'remove',
      'history',
    ]);
    expect(findCommand('digest')!.definition.subcommands!.map((s) => s.name)).toEqual([
      'setup',
      'preview',
      'now',
      'off',
      'status',
    ]);
    expect(findCommand('paper')!.definition.subcommands!.map((s) => s.name)).toEqual([
      'search',
      'show',
      'cite',
      'latest',
      'random',
      'mark',
    ]);
    expect(findCommand('digest')!.definition.defaultMemberPermissions).toBe('32');
  });

  it('has /help list every command and subcommand', async () => {
    const help = await findCommand('help')!.execute(
      { user: { id: 'u', name: 'u' }, canManage: false, options: {} },
      undefined as never,
    );
    const text = help.embeds![0]!.description!;
    for (const c of commands) for (const line of commandUsage(c.definition)) expect(text).toContain(line.usage);
    expect(text).toContain('/digest setup channel:<channel> time:<text> timezone:<text>');
  });
});
