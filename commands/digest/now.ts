import type { CommandDeps } from '../../src/core/command.ts';
import type { Poster } from '../../src/core/delivery/poster.ts';
import { localClock } from '../../src/core/delivery/schedule.ts';
import type { Reply } from '../../src/core/reply.ts';
import { channelMention } from '../../src/core/views/digest-config.ts';
import { getChannel } from '../../db/queries/channels.ts';
import type { Channel } from '../../db/schema.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';

/**
 * `/digest now`: the delivery job for one channel, forced past its post time. It goes through the
 * same outbox as the scheduled run, so it posts today's digest at most once: a second `/digest now`,
 * or the scheduled run later today, posts nothing more.
 */
export async function postDigestNow(deps: CommandDeps, row: Channel, poster: Poster): Promise<Reply> {
  const where = channelMention(row.channelId);
  const today = localClock(deps.now(), row.timezone).date;
  const counts = await deliverDigests(deps, { poster, channelId: row.channelId, force: true });
  let content: string;
  if (counts.undeliverable > 0) {
    const after = await getChannel(deps.db, row.channelId);
    content = `Could not post in ${where}: ${after?.deliveryError ?? 'the bot lost access'}. Digests there are paused; give the bot View Channel, Send Messages and Embed Links, then run /digest setup again.`;
  } else if (counts.failed > 0) {
    content = `Posting to ${where} failed part way (${counts.messages} message${counts.messages === 1 ? '' : 's'} sent). The delivery job retries the rest within 5 minutes, without duplicates.`;
  } else if (counts.busy > 0) {
    content = `The digest of ${today} for ${where} is being posted by another run of the bot right now (the scheduled one, or another process)${counts.messages > 0 ? `; this one posted ${counts.messages} message${counts.messages === 1 ? '' : 's'} of it` : ''}. Nothing is posted twice; /digest status shows it once it is out.`;
  } else if (counts.messages > 0) {
    content = `Posted ${counts.messages} message${counts.messages === 1 ? '' : 's'} to ${where}. This is the digest of ${today}: the scheduled run will not post again today.`;
  } else if (counts.planned > 0) {
    content = `No new GRPO-family papers for ${where} since its last digest, so nothing was posted${row.quietDay === 'notice' ? '' : ' (quiet_day is "nothing")'}. ${today} counts as a quiet day.`;
  } else {
    content = `The digest of ${today} for ${where} is already out; nothing more was posted. /digest status shows when the next one comes.`;
  }
  return { content, ephemeral: true };
}
