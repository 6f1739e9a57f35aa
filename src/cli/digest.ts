import type { Command as Cli } from 'commander';
import { digestPictureAlt } from '../core/pictures/digest-week.ts';
import { renderReply } from '../adapters/console/render.ts';
import { composeDigest } from '../core/digest/compose.ts';
import { UserFacingError } from '../core/errors.ts';
import { isoDate, print, printJson, withApp } from './shared.ts';
import { loadChannelDigest } from '../services/outbox/channel-digest.ts';
import { sampleLabel } from '../core/views/digest-preview.ts';

interface DigestOptions {
  channel: string;
  date?: string;
  dryRun?: boolean;
  sample?: boolean;
  json?: boolean;
}

/** `digest --dry-run`: what a channel's digest would post, rendered, with nothing posted or stored. */
export function addDigestCommands(cli: Cli): void {
  cli
    .command('digest')
    .description("Show what a channel's digest would post (--dry-run); the bot posts digests on its schedule")
    .requiredOption('--channel <id>', 'the Discord channel id configured with /digest setup')
    .option(
      '--date <YYYY-MM-DD>',
      "the digest of this local date, as at the channel's post time (default: now)",
      isoDate,
    )
    .option('--dry-run', 'render the messages without posting or changing anything')
    .option(
      '--sample',
      'with nothing new, show a sample built from the latest GRPO-family papers (labelled as a sample)',
    )
    .option('--json', 'print the messages as JSON')
    .action((o: DigestOptions) => {
      if (!o.dryRun) {
        throw new UserFacingError(
          "Digests are posted by the bot's scheduler, or with /digest now in Discord. Add --dry-run to see what would be posted.",
        );
      }
      // A dry run must not write: no seed import on an empty database (migrations are idempotent).
      return withApp(
        async (app) => {
          const found = await loadChannelDigest(app.deps.db, o.channel, {
            now: app.deps.now(),
            sample: Boolean(o.sample),
            ...(o.date && { date: o.date }),
          });
          if (!found)
            throw new UserFacingError(
              `Channel ${o.channel} has no digest configured. Set one up in that channel with /digest setup.`,
            );
          const messages = composeDigest(found.input);
          if (o.json) return printJson(o.sample ? { sample: found.sample, messages } : messages);
          const { window } = found;
          print(
            `Dry run: digest for channel ${o.channel} on ${window.date} (news after ${window.since.toISOString()}, up to ${window.until.toISOString()}); nothing is posted.`,
          );
          if (found.sample)
            print(
              renderReply({
                content: sampleLabel(
                  `channel ${o.channel}`,
                  window.since,
                  messages.reduce((n, m) => n + m.paperIds.length, 0),
                ),
              }),
            );
          if (!found.channel.enabled)
            print("Note: this channel's digest is paused (disabled), so the bot would not post it.");
          if (messages.length === 0)
            return print(
              'Nothing would be posted: no new GRPO-family papers, and the channel\'s quiet-day setting is "nothing". Add --sample to see what a digest looks like.',
            );
          messages.forEach((m, i) => {
            print(`\n=== message ${i + 1} of ${messages.length} · papers ${m.paperIds.join(', ') || '(none)'} ===`);
            print(renderReply(m.reply));
            if (m.picture)
              print(`🖼 Header picture (drawn when posted; /digest preview shows it): ${digestPictureAlt(m.picture)}`);
          });
        },
        { seedIfEmpty: false, quiet: true },
      );
    });
}
