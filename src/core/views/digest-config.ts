import type { LastDigest } from '../../../db/queries/channels.ts';
import type { Channel } from '../../../db/schema.ts';
import type { NextDigest } from '../delivery/next.ts';
import { WEEKDAY_NAMES } from '../delivery/settings.ts';
import { truncate, type Embed, type EmbedField, type Reply } from '../reply.ts';
import { discordTime, whenText } from './time.ts';

export const channelMention = (id: string) => (/^\d+$/.test(id) ? `<#${id}>` : `#${id}`);

/** The schedule in words: "daily at 09:00 Europe/Berlin" / "weekly on Monday at 09:00 UTC". */
export function scheduleText(c: Pick<Channel, 'cadence' | 'weekday' | 'postTime' | 'timezone'>): string {
  const day = c.cadence === 'weekly' ? ` on ${WEEKDAY_NAMES[c.weekday ?? 1] ?? 'Monday'}` : '';
  return `${c.cadence === 'weekly' ? 'weekly' : 'daily'}${day} at ${c.postTime} ${c.timezone}`;
}

/**
 * When the next digest goes out, or why none will. `scheduled`: a scheduler runs in this process (the
 * bot on Discord); without one (console, CLI) the answer says the time is when the bot will post,
 * as /status says the scheduler is not running.
 */
export function nextText(c: Channel, next: NextDigest | undefined, scheduled: boolean): string {
  if (!c.enabled) return 'none: digests are off here (/digest setup turns them back on)';
  if (c.deliveryError) return 'none: paused until /digest setup is run again (see the delivery error)';
  if (!next) return 'unknown';
  const idle =
    'no scheduler runs in this process: digests are posted by the bot running on Discord (npm start with DISCORD_TOKEN)';
  if (next.late) {
    return scheduled
      ? `within 5 minutes (today's ${c.postTime} has passed and today's digest is not out yet)`
      : `due now (today's ${c.postTime} has passed and today's digest is not out yet), but ${idle}`;
  }
  // Discord shows the timestamp in the reader's own time, then the channel's; a UTC channel's time is
  // said once (the console renders timestamps in UTC, which said it twice).
  const local = `${next.date} ${c.postTime} ${c.timezone}`;
  const utc = c.timezone === 'UTC' || c.timezone === 'Etc/UTC';
  const when = utc ? `${local} (${discordTime(next.at, 'R')})` : `${whenText(next.at)}, ${local}`;
  return scheduled ? when : `${when}, if the bot is running then (${idle})`;
}

function settingsFields(c: Channel, next: NextDigest | undefined, scheduled: boolean): EmbedField[] {
  return [
    { name: 'Schedule', value: scheduleText(c), inline: true },
    { name: 'Language', value: c.language === 'zh' ? 'Chinese (zh)' : 'English (en)', inline: true },
    { name: 'Papers', value: `at most ${c.maxPapers}, score ≥ ${c.minScore}`, inline: true },
    { name: 'Topics', value: c.topics.length ? truncate(c.topics.join(', '), 1024) : 'all', inline: true },
    { name: 'Quiet day', value: c.quietDay === 'notice' ? 'a one-line notice' : 'post nothing', inline: true },
    { name: 'Ping', value: c.pingRoleId ? `<@&${c.pingRoleId}>` : 'nobody', inline: true },
    { name: 'Threads', value: c.threadPerPaper ? 'one per paper' : 'no', inline: true },
    { name: 'Header picture', value: c.headerImage ? "the week's papers by family" : 'no', inline: true },
    { name: 'Next digest', value: nextText(c, next, scheduled) },
  ];
}

/** `/digest setup`'s answer: what was saved and when the first digest comes. */
export function setupReply(c: Channel, next: NextDigest, scheduled: boolean, pingProblem?: string): Reply {
  const fields = settingsFields(c, next, scheduled);
  if (pingProblem) fields.push({ name: '⚠ The ping will not notify anyone', value: truncate(pingProblem, 1024) });
  const embed: Embed = {
    title: 'Digest set up',
    description: `New GRPO-family papers go to ${channelMention(c.channelId)} ${scheduleText(c)}. /digest preview shows what the next one would contain.`,
    fields,
  };
  return { embeds: [embed], ephemeral: true };
}

/** `/digest status`: the configuration, the last digest, the next one, and a delivery error if any. */
export function statusReply(
  c: Channel,
  next: NextDigest | undefined,
  last: LastDigest | undefined,
  scheduled: boolean,
): Reply {
  const fields = settingsFields(c, next, scheduled);
  fields.unshift({
    name: 'State',
    value: c.deliveryError ? 'paused: the bot cannot post here' : c.enabled ? 'on' : 'off',
    inline: true,
  });
  const lastText = !last
    ? 'none yet'
    : last.empty
      ? `${last.digestKey}: quiet day, nothing posted`
      : `${last.digestKey}: ${last.sent} of ${last.parts} message${last.parts === 1 ? '' : 's'} sent${last.lastSentAt ? `, ${whenText(last.lastSentAt)}` : ''}`;
  fields.push({ name: 'Last digest', value: lastText });
  if (c.deliveryError) {
    const since = c.deliveryErrorAt ? ` (since ${whenText(c.deliveryErrorAt)})` : '';
    fields.push({
      name: 'Delivery error',
      value: truncate(
        `${c.deliveryError}${since}\nGive the bot View Channel, Send Messages and Embed Links there, then run /digest setup again.`,
        1024,
      ),
    });
  }
  return {
    embeds: [{ title: 'Digest status', description: `The digest of ${channelMention(c.channelId)}.`, fields }],
    ephemeral: true,
  };
}
