/**
 * What became of an /ask question, as the views show it. The service (src/services/ask) fills it with
 * stored papers; the view reads only what it declares here.
 */
import type { AskSource } from './prompt.ts';
import type { Correction } from '../ranking/typo.ts';

/** What an answer shows of a paper: its links, title and abstract. */
export interface AskedPaper {
  arxivId: string | null;
  arxivVersion?: number | null;
  title: string;
  abstract: string;
  githubUrl?: string | null;
  projectPage?: string | null;
}

/** A paper found for the question, with its reference number and the summary shown for it. */
export interface RetrievedPaper<P extends AskedPaper = AskedPaper> {
  paper: P;
  source: AskSource;
}

/**
 * Why the model gave no answer: it was slow or unavailable (try again later), the bot's model
 * configuration is refused (an operator must act), the API rejected the request, or the answer was
 * malformed, cited papers it was not given, was refused or was cut off.
 */
export type AskFailure =
  | 'slow'
  | 'unavailable'
  | 'misconfigured'
  | 'rejected'
  | 'malformed'
  | 'bad-citations'
  | 'refused'
  | 'cut-off'
  | 'over-budget';

/**
 * What became of a question. `answered` and `not-answerable` come from the model; the others show
 * the ranked papers instead, saying why there is no answer.
 */
export type AskResult<P extends AskedPaper = AskedPaper> = {
  question: string;
  papers: RetrievedPaper<P>[];
  /** Misspelled words of the question that retrieval searched as others (said above the answer). */
  corrections: readonly Correction[];
  costUsd: number;
  model: string | null;
} & (
  | { kind: 'answered'; answer: string; citations: number[] }
  | { kind: 'not-answerable' }
  | { kind: 'no-papers' }
  | { kind: 'no-key' }
  | { kind: 'over-budget' }
  | { kind: 'failed'; reason: Exclude<AskFailure, 'over-budget'>; error: string }
);
