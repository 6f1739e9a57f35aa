import type { DigestMessage } from '../digest/types.ts';
import type { DigestWindow } from '../digest/window.ts';
import { LIMITS, truncate, type Reply } from '../reply.ts';
import { channelMention } from './digest-config.ts';
import { whenText } from './time.ts';

/** The line that labels a sample digest, wherever one is shown (preview, dry run). */
export function sampleLabel(where: string, since: Date, papers: number): string {
  return `**Sample, not the real digest**: nothing is new for ${where} since ${whenText(since)}, so this shows what a digest looks like with the ${papers} latest GRPO-family paper${papers === 1 ? '' : 's'}. The real digest posts only papers that are new.`;
}

/**
 * `/digest preview`: the first message of the digest as it would be posted now, under a line that
 * says how many messages and papers the whole digest has. Ephemeral, so a preview pings nobody.
 * `sample`: nothing is new, and the messages were built from the latest papers (labelled as such).
 */
export function digestPreviewReply(
  c: { channelId: string; quietDay: string },
  window: DigestWindow,
  messages: DigestMessage[],
  sample = false,
): Reply {
  const where = channelMention(c.channelId);
  if (messages.length === 0) {
    const quiet = c.quietDay === 'notice' ? '' : ' and quiet_day is "nothing"';
    return {
      content: `Nothing would be posted in ${where} now: no new GRPO-family papers since ${whenText(window.since)}${quiet}.`,
      ephemeral: true,
    };
  }
  const papers = messages.reduce((n, m) => n + m.paperIds.length, 0);
  const size = `${messages.length} message${messages.length === 1 ? '' : 's'}, ${papers} paper${papers === 1 ? '' : 's'}`;
  const shown = messages.length > 1 ? ` Below: message 1 of ${messages.length}.` : '';
  const head = sample
    ? `${sampleLabel(where, window.since, papers)}${messages.length > 1 ? ` (${size}.)${shown}` : ''}`
    : `**Preview** of the digest for ${where} (${size}; papers since ${whenText(window.since)}).${shown}`;
  const first = messages[0]!.reply;
  return {
    ...first,
    content: truncate([head, first.content].filter(Boolean).join('\n'), LIMITS.content),
    ephemeral: true,
  };
}
