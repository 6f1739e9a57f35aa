import { TOPICS } from '../papers/topics.ts';
import type { Reply } from '../reply.ts';

/** `/topics`: every topic of the taxonomy with its slug, what it covers and how many GRPO-family papers it has. */
export function topicsReply(counts: { total: number; byTopic: ReadonlyMap<string, number> }): Reply {
  const fields = TOPICS.map((t) => {
    const n = counts.byTopic.get(t.slug) ?? 0;
    return { name: `${t.label} · \`${t.slug}\` · ${n} paper${n === 1 ? '' : 's'}`, value: t.description };
  });
  return {
    embeds: [
      {
        title: 'Topics',
        description: `${counts.total} GRPO-family papers in the corpus; a paper can be in several topics. Use the slugs in /digest setup topics:…`,
        fields,
      },
    ],
    ephemeral: true,
  };
}
