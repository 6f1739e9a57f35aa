/**
 * A channel's digest as an ordered list of platform-neutral messages. Pure, no I/O: the same input
 * gives the same messages, so a digest re-composed after a crash matches its outbox rows.
 *
 * Rules: papers are selected and ranked (select.ts, rank.ts); each becomes one embed plus one row
 * of buttons (card.ts); messages are filled in rank order, at most five papers each (Discord's five
 * button rows) and at most 6,000 embed characters each, so a long digest splits over several
 * messages without reordering or dropping anything. The first message's content is the header
 * (date, per-feed counts, warnings) and, when configured, the role ping and (weekly digests) what
 * the header picture shows; later ones say which part they are. A day without papers posts nothing, or a one-line notice when the channel asked for
 * one; a source warning is posted even then, since the quiet may be the broken source's doing.
 */
import { digestPicture } from '../pictures/digest-week.ts';
import { LIMITS, type Reply } from '../reply.ts';
import { paperCard, PAPERS_PER_MESSAGE, type PaperCard } from './card.ts';
import { digestHeader } from './header.ts';
import { labelsFor } from './labels.ts';
import { selectPapers } from './select.ts';
import { fit } from '../text/clip.ts';
import type { DigestInput, DigestMessage } from './types.ts';

export function composeDigest(input: DigestInput): DigestMessage[] {
  const { channel } = input;
  const l = labelsFor(channel.language);
  const { shown, total, eligible } = selectPapers(input.papers, channel, input.since, input.now);
  const header = digestHeader(input, l);

  if (shown.length === 0) {
    if (channel.quietDay !== 'notice' && header.warnings.length === 0) return [];
    return [
      { reply: { content: fit([header.line, l.quiet, ...header.warnings].join('\n'), LIMITS.content) }, paperIds: [] },
    ];
  }

  const cards = shown.map((p) => paperCard(p, input.summaries.get(p.id), l, channel.language));
  const groups = pack(cards, channel.threadPerPaper ? 1 : PAPERS_PER_MESSAGE);
  const ping = channel.pingRoleId && /^\d+$/.test(channel.pingRoleId) ? channel.pingRoleId : undefined;
  const picture =
    channel.cadence === 'weekly' && channel.headerImage ? digestPicture(eligible, input.date, input.sample) : undefined;
  return groups.map((group, i) => {
    const part = groups.length > 1 ? l.part(i + 1, groups.length) : '';
    const content =
      i === 0
        ? fit(
            [
              [ping ? `<@&${ping}>` : '', header.line].filter(Boolean).join(' '),
              [input.sample ? l.sampleCount(shown.length) : l.count(shown.length, total), part]
                .filter(Boolean)
                .join(' · '),
              ...header.warnings,
            ].join('\n'),
            LIMITS.content,
          )
        : fit(`${l.title[channel.cadence]} · ${input.date} · ${part}`, LIMITS.content);
    const reply: Reply = { content, embeds: group.map((c) => c.embed), components: group.map((c) => c.buttons) };
    const thread = channel.threadPerPaper ? threadName(group[0]!.embed.title) : undefined;
    return {
      reply,
      paperIds: group.map((c) => c.paperId),
      ...(i === 0 && ping ? { pingRoleId: ping } : {}),
      ...(thread && { threadName: thread }),
      ...(i === 0 && picture && { picture }),
    };
  });
}

/** Discord thread names: at most 100 characters, plain text (the embed title carries markdown escapes). */
function threadName(title: string | undefined): string | undefined {
  const plain = (title ?? '').replace(/\\([\\*_~`|>[\]()#-])/g, '$1').trim();
  return plain ? fit(plain, 100) : undefined;
}

/** Fills messages in order: a new one when `perMessage` papers or 6,000 embed characters would be exceeded. */
export function pack(cards: PaperCard[], perMessage: number = PAPERS_PER_MESSAGE): PaperCard[][] {
  const groups: PaperCard[][] = [];
  let current: PaperCard[] = [];
  let size = 0;
  for (const card of cards) {
    if (
      current.length > 0 &&
      (current.length >= perMessage ||
        current.length >= LIMITS.embedsPerMessage ||
        size + card.size > LIMITS.embedTotal)
    ) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(card);
    size += card.size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
