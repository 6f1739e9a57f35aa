/**
 * What reading the full text costs per paper, for both languages, with and without the shared
 * cached prefix: the real summariser request and the real SDK against the fake API in proportional
 * mode (tokens from characters at 3.5 per token; a prefix marked for caching is written once and read
 * after, when it reaches Haiku 4.5's 4,096-token minimum), priced with src/services/llm/pricing.ts.
 *   npx tsx bench/summary-prefix-cost.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLlm } from '../src/services/llm/anthropic.ts';
import { callStructured } from '../src/services/llm/structured.ts';
import { usefulSections, type TextSection } from '../src/core/papers/paper-text.ts';
import { parseArxivHtml } from '../src/services/sources/arxiv-html.ts';
import { summaryReader } from '../src/services/summarize/answer.ts';
import { evidenceText, summaryRequest, type SummaryInput } from '../src/services/summarize/prompt.ts';
import { LANGS } from '../src/services/summarize/schema.ts';
import { startFakeAnthropicServer, validSummary } from '../test/helpers/fake-anthropic-server.ts';

const page = parseArxivHtml(
  readFileSync(path.join(import.meta.dirname, '../test/fixtures/arxiv-html/2611.04242v2.html'), 'utf8'),
);
if (page.kind !== 'ok') throw new Error('fixture');
// A paper's text is usually longer than the 60,000 characters a request carries: pad the fixture with
// appendix tables so the request is full, as it is for most real papers.
const filler: TextSection = {
  heading: 'Appendix B Training curves',
  kind: 'appendix',
  text: Array.from(
    { length: 2500 },
    (_, i) => `${i * 5} | ${(20 + i * 0.01).toFixed(2)} | ${(0.9 - i * 0.0001).toFixed(4)}`,
  ).join('\n'),
};
const paper = (id: number, full: boolean): SummaryInput => ({
  id,
  arxivId: `2611.${40000 + id}`,
  title: 'Balanced Clipping for Group Relative Policy Optimization',
  authors: ['A. Example'],
  categories: ['cs.LG'],
  aiSummary: null,
  abstract: page.sections[0]!.text,
  fullText: full ? [...usefulSections(page.sections), filler] : null,
});

const fake = await startFakeAnthropicServer({
  usage: 'proportional',
  okAnswer: () => ({
    ...validSummary('bench'),
    settings: [{ name: 'group_size', value: '16', evidence: 'Rollouts per prompt ($G$) | 16' }],
  }),
});
const llm = createLlm({ apiKey: 'bench', baseUrl: fake.base, model: 'claude-haiku-4-5' }, { timeoutMs: 60_000 })!;
const PAPERS = 10;
const rows: string[] = [];
for (const mode of ['abstract only', 'full text, no cache', 'full text, shared prefix'] as const) {
  const t = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0, usd: 0 };
  for (let i = 0; i < PAPERS; i++) {
    const p = paper(i + (mode === 'full text, shared prefix' ? 100 : 0), mode !== 'abstract only');
    for (const lang of LANGS) {
      const req = summaryRequest(p, lang, llm.model);
      // Without the prefix: the same request, the breakpoint taken off.
      const body =
        mode === 'full text, no cache'
          ? {
              ...req,
              messages: req.messages.map((m) => ({
                ...m,
                content: (m.content as { type: 'text'; text: string }[]).map(({ type, text }) => ({ type, text })),
              })),
            }
          : req;
      const r = await callStructured(llm, body, { read: summaryReader(evidenceText(p)) });
      t.input += r.usage.input;
      t.cacheWrite += r.usage.cacheWrite;
      t.cacheRead += r.usage.cacheRead;
      t.output += r.usage.output;
      t.usd += r.costUsd;
    }
  }
  const per = (n: number) => Math.round(n / PAPERS).toLocaleString('en-US');
  rows.push(
    `| ${mode} | ${per(t.input)} | ${per(t.cacheWrite)} | ${per(t.cacheRead)} | ${per(t.output)} | $${(t.usd / PAPERS).toFixed(4)} |`,
  );
}
await fake.close();
console.log(`Per paper, English + Chinese (${PAPERS} papers, claude-haiku-4-5 prices, direct calls):\n`);
console.log('| request | input tokens | cache writes | cache reads | output tokens | dollars |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
