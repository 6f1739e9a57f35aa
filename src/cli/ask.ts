import type { Command as Cli } from 'commander';
import { answerQuestion } from '../services/ask/answer.ts';
import { redactSecrets, UserFacingError } from '../core/errors.ts';
import { stripUnsafeChars } from '../core/reply.ts';
import { renderReply } from '../adapters/console/render.ts';
import { askReply } from '../core/views/ask.ts';
import { print, printJson, withApp } from './shared.ts';

/** `grpo-digest ask "<question>" [--json]`: /ask from the shell (no rate limit: the shell is the operator). */
export function addAskCommand(cli: Cli): void {
  cli
    .command('ask')
    .description('Answer a question from the stored papers only, citing them (needs ANTHROPIC_API_KEY for an answer)')
    .argument('<question>', 'the question')
    .option('--json', 'print the answer, citations and sources as JSON')
    .action((typed: string, o: { json?: boolean }) =>
      withApp(
        async (app) => {
          const question = stripUnsafeChars(typed);
          if (!question.trim())
            throw new UserFacingError(
              'The question is empty. Example: grpo-digest ask "which paper clips at the sequence level?"',
            );
          const r = await answerQuestion(app.deps, { question: question.trim() });
          if (!o.json) return print(renderReply(askReply(r)));
          printJson({
            question: r.question,
            kind: r.kind,
            corrections: r.corrections,
            answer: r.kind === 'answered' ? r.answer : null,
            citations: r.kind === 'answered' ? r.citations : [],
            error: r.kind === 'failed' ? redactSecrets(r.error) : null,
            model: r.model,
            cost_usd: r.costUsd,
            sources: r.papers.map((p) => ({
              n: p.source.n,
              arxiv_id: p.paper.arxivId,
              title: p.paper.title,
              tldr: p.source.tldr,
            })),
          });
        },
        { quiet: true },
      ),
    );
}
