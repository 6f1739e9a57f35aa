/**
 * The digest composer's inputs and outputs: plain data, no database rows, no Discord types, so a
 * digest can be composed (and tested, and benchmarked for 1,000 channels) without any I/O.
 * `db/queries/digest.ts` builds a `DigestInput` for one channel; `composeDigest` turns it into messages.
 */
import type { DigestPicture } from '../pictures/digest-week.ts';
import type { Reply } from '../reply.ts';
import type { CitationCounts } from '../papers/citation-counts.ts';

export type DigestLanguage = 'en' | 'zh';

/** The part of a `channels` row the composer reads. */
export interface DigestChannel {
  channelId: string;
  language: DigestLanguage;
  cadence: 'daily' | 'weekly';
  /** Topic slugs; empty means every topic. */
  topics: string[];
  maxPapers: number;
  minScore: number;
  quietDay: 'nothing' | 'notice';
  pingRoleId: string | null;
  /** One message per paper, each opening a discussion thread. */
  threadPerPaper: boolean;
  /** Weekly digests: the first message carries a picture of the week's papers by family (off unless set). */
  headerImage?: boolean;
}

/** A candidate paper with the signals the ranking uses. */
export interface DigestPaper {
  id: number;
  arxivId: string | null;
  arxivVersion: number | null;
  title: string;
  titleZh: string | null;
  authors: string[];
  authorCount: number | null;
  organization: string | null;
  grpoFamily: boolean;
  familyScore: number;
  families: string[];
  topics: string[];
  hfUpvotes: number | null;
  githubStars: number | null;
  githubUrl: string | null;
  /** Semantic Scholar's counts (null or absent until a refresh found the paper): a small ranking signal, shown on the card. */
  citations?: CitationCounts | null;
  /** Votes for this paper in the channel's server's reading-group queue (0 when not queued). */
  votes: number;
  newsAt: Date;
}

/**
 * "The summary to show" for a paper in the channel's language. Defined here rather than imported
 * from src/services/summarize so the composer stays pure and the loader can be swapped for the summariser's.
 */
export interface DigestSummary {
  /** `llm`: a stored LLM summary; `note`: a human seed note; `fallback`: extractive, not LLM-written. */
  kind: 'llm' | 'note' | 'fallback';
  tldr: string;
  /** GRPO delta per axis (advantage_normalization, clipping, kl_term, ...): free text, "unchanged" skipped. */
  grpoDelta?: Record<string, string>;
  /** Replaces the default provenance label shown next to the TL;DR. */
  label?: string;
  /** The two or three most telling training settings, e.g. "G=16 · ε 0.2/0.28 · no KL". */
  settings?: string;
}

/** A feed's last poll, as the header reports it (a subset of a `feed_state` row). */
export interface FeedHealth {
  /** `arxiv-rss:cs.LG`, `arxiv-api`, `hf-daily`. */
  feed: string;
  health: string | null;
  healthDetail: string | null;
  lastNewCount: number | null;
  lastFamilyCount: number | null;
  lastSuccessAt: Date | null;
}

export interface DigestInput {
  channel: DigestChannel;
  /** The digest's local date (YYYY-MM-DD) in the channel's time zone: its key and its header. */
  date: string;
  /** When the digest is composed: the reference for recency and for feed staleness. */
  now: Date;
  /** Candidates; composeDigest filters them again (GRPO family, window, topics, minScore) before ranking. */
  papers: DigestPaper[];
  /** Only papers newer than this are news (exclusive); undefined = every candidate. */
  since?: Date;
  summaries: ReadonlyMap<number, DigestSummary>;
  feeds: FeedHealth[];
  /** A preview built from the latest papers because nothing is new: never posted, and it says it is a sample, not news. */
  sample?: boolean;
}

/** One message to post, in order, and the papers it carries (for the outbox and the vote buttons). */
export interface DigestMessage {
  reply: Reply;
  paperIds: number[];
  /** Set on the first message only when the channel asked for a role ping: the one mention to allow. */
  pingRoleId?: string;
  /** Thread-per-paper channels: the discussion thread to open on this message (the paper's title). */
  threadName?: string;
  /** Weekly digests with a header picture, first message only: what to draw, drawn when the message is sent. */
  picture?: DigestPicture;
}
