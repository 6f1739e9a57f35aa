import type { AskFailure, AskResult, RetrievedPaper } from '../ask/result.ts';
import { NOT_ANSWERABLE } from '../ask/prompt.ts';
import { defuseLinks, LIMITS, neutralizeMentions, truncate, untrustedText, type Embed, type Reply } from '../reply.ts';
import { linkTitle, paperLinks } from '../papers/links.ts';
import { readable } from '../papers/latex.ts';
import { correctionNotice } from './search-notice.ts';

export const NO_KEY_NOTICE =
  'An answer needs ANTHROPIC_API_KEY; here are the most relevant stored papers with their TL;DRs.';
const PAPERS = 'here are the most relevant stored papers.';

/** Why there is no answer, in words a user can act on; each is followed by the ranked papers. */
export const FAILED_NOTICES: Record<Exclude<AskFailure, 'over-budget'>, string> = {
  slow: `The model did not answer in time (the API is slow right now); try again in a few minutes. Meanwhile, ${PAPERS}`,
  unavailable: `The model is unavailable right now (overloaded or unreachable); try again in a few minutes. Meanwhile, ${PAPERS}`,
  misconfigured: `The model API refuses this bot's configuration (an operator needs to check ANTHROPIC_MODEL and the API key); ${PAPERS}`,
  rejected: `The model API rejected this question's request; ${PAPERS}`,
  malformed: `The model's answer was malformed twice, so it is not shown; ${PAPERS}`,
  'bad-citations': `The answer cited papers it was not given, twice, so it is not shown; ${PAPERS}`,
  refused: `The model declined to answer; ${PAPERS}`,
  'cut-off': `The answer ran past its length limit twice, so it is not shown; ${PAPERS}`,
};
export const BUDGET_NOTICE =
  "Today's LLM budget (LLM_DAILY_BUDGET_USD) is spent; here are the most relevant stored papers.";

const url = (p: RetrievedPaper) => paperLinks(p.paper).main;

/** One source line: `[n] Title (arXiv id) <link>`, the title linked. */
export function sourceLine(p: RetrievedPaper): string {
  const id = p.paper.arxivId ? ` · \`${p.paper.arxivId}\`` : '';
  return `**[${p.source.n}]** [${truncate(linkTitle(p.paper.title), 150)}](${url(p)})${id}`;
}

/** The answer with every `[n]` made a link to paper n (only numbers that were checked to exist). */
export function linkCitations(answer: string, papers: readonly RetrievedPaper[]): string {
  return answer.replace(/\[(\d+)\]/g, (m, n: string) => {
    const p = papers[Number(n) - 1];
    return p ? `[[${n}]](${url(p)})` : m;
  });
}

/** Ranked papers with their TL;DRs, under a notice saying why there is no answer. */
function rankedList(papers: readonly RetrievedPaper[], perEntryBudget: number): string {
  const per = Math.floor(perEntryBudget / Math.max(papers.length, 1));
  return papers
    .map((p) =>
      truncate(
        `${sourceLine(p)}\n${untrustedText((p.source.tldr ?? readable(p.paper.abstract)).replace(/\s+/g, ' '))}`,
        per,
      ),
    )
    .join('\n\n');
}

const title = (q: string) => truncate(`Q: ${neutralizeMentions(q.replace(/\s+/g, ' '))}`, LIMITS.title);

/** The reply to /ask for any outcome. Within Discord's limits: the description stays under 4,096 characters. */
export function askReply(r: AskResult): Reply {
  const corrected = correctionNotice(r.question, r.corrections);
  // Said first, as /paper search does: the papers were found for the corrected words.
  const lead = corrected ? `${corrected}\n\n` : '';
  if (r.kind === 'no-papers') {
    return {
      content: `No stored paper matches "${truncate(neutralizeMentions(r.question), 200)}". Try other words, or drop the since/topic filters.`,
      ephemeral: true,
    };
  }
  const embed: Embed = { title: title(r.question) };
  if (r.kind === 'answered') {
    const cited = r.citations.flatMap((n) => r.papers[n - 1] ?? []);
    const sources = `\n\n**Sources**\n${cited.map(sourceLine).join('\n')}`;
    const room = LIMITS.description - sources.length - lead.length;
    embed.description = lead + truncate(linkCitations(defuseLinks(r.answer), r.papers), Math.max(200, room)) + sources;
    embed.description = truncate(embed.description, LIMITS.description);
    embed.footer = `Answered only from ${r.papers.length} retrieved papers${r.model ? ` by ${r.model}` : ''}. Check the sources.`;
  } else {
    const notice =
      r.kind === 'failed'
        ? FAILED_NOTICES[r.reason]
        : {
            'not-answerable': `${NOT_ANSWERABLE} The closest stored papers:`,
            'no-key': NO_KEY_NOTICE,
            'over-budget': BUDGET_NOTICE,
          }[r.kind];
    embed.description = truncate(
      `${lead}${notice}\n\n${rankedList(r.papers, LIMITS.description - lead.length - notice.length - 10)}`,
      LIMITS.description,
    );
  }
  return { embeds: [embed] };
}

/** "Show sources": every retrieved paper, numbered as in the answer. */
export function sourcesReply(question: string, papers: readonly RetrievedPaper[]): Reply {
  if (papers.length === 0) return { content: 'None of these papers is stored any more.', ephemeral: true };
  return {
    embeds: [
      {
        title: truncate(`Sources for: ${neutralizeMentions(question)}`, LIMITS.title),
        description: truncate(rankedList(papers, LIMITS.description - 20), LIMITS.description),
      },
    ],
    ephemeral: true,
  };
}
