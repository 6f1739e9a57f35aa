import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The whole product's schema. Later features add behaviour, not tables.
 * Column names are camelCase here and snake_case in SQL (`casing: 'snake_case'` in the client and drizzle.config.ts).
 */

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** One row per paper: keyed by arXiv id without version when known, else by normalised title. */
export const papers = pgTable(
  'papers',
  {
    id: serial().primaryKey(),
    arxivId: text(),
    arxivVersion: integer(),
    titleKey: text().notNull(),
    title: text().notNull(),
    titleZh: text(),
    abstract: text().notNull().default(''),
    abstractZh: text(),
    authors: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorCount: integer(),
    organization: text(),
    /** Publication (or announcement) date; month-only sources use the 1st of the month. */
    publishedOn: date({ mode: 'string' }),
    categories: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    githubUrl: text(),
    githubStars: integer(),
    projectPage: text(),
    hfUpvotes: integer(),
    aiSummary: text(),
    aiKeywords: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The key-less filter's verdict and score (rules + learned model; null until classified). */
    rulesFamily: boolean(),
    rulesScore: real(),
    /** The LLM judge's verdict for uncertain papers (family_judgements keeps its reason); null when not judged. */
    judgeFamily: boolean(),
    /** A moderator's correction (family_marks keeps who, when and why); null when unmarked. */
    familyMark: boolean(),
    /** In the GRPO family, as everything user-facing reads it: a moderator's mark, else the judge, else the filter. */
    grpoFamily: boolean().generatedAlwaysAs(sql`coalesce(family_mark, judge_family, rules_family)`),
    /** The score digests rank and threshold on, agreeing with `grpo_family`: a mark is 0 or 1; the judge lifts or caps the filter's score. */
    familyScore: real()
      .generatedAlwaysAs(sql`case when family_mark is not null then case when family_mark then 1 else 0 end
    when judge_family is not null then case when judge_family then greatest(coalesce(rules_score, 0), 0.75) else least(coalesce(rules_score, 0), 0.25) end
    else rules_score end`),
    families: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    topics: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    classifyReasons: jsonb().$type<string[]>(),
    classifiedAt: timestamp({ withTimezone: true }),
    /** The Latin words of the paper's notes (GSPO inside a Chinese note), for search; maintained by the app. */
    searchNotes: text().notNull().default(''),
    /** Chinese search terms (bigrams and characters) of the Chinese title, translation and notes; maintained by the app. */
    searchZh: text().notNull().default(''),
    /**
     * In the searchable corpus: the seeds and every paper ever classified GRPO-family. The feeds also
     * list thousands of unrelated papers a day; they are kept (identity, provenance, re-classification)
     * but not text-indexed, which is most of what storing them would cost.
     */
    indexed: boolean().notNull().default(true),
    /**
     * Bumped from a sequence by a trigger whenever what search reads of the paper changes (its text,
     * families, `indexed`, a summary): each replica's search index reloads rows past the highest it has.
     */
    searchRev: bigint({ mode: 'number' })
      .notNull()
      .default(sql`nextval('papers_search_rev_seq')`),
    firstSeenAt: createdAt(),
    /**
     * When the paper became news for digests and subscriptions. Set once, when a poll first stores
     * it from a `new` or `cross` announcement (or from HF/API catch-up). Null for seed papers,
     * backfilled papers, papers first seen as a `replace`, and everything a source's first poll
     * stores (so adding a source never floods a channel).
     */
    newsAt: timestamp({ withTimezone: true }),
    updatedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('papers_arxiv_id_uq').on(t.arxivId),
    index('papers_news_idx').on(t.newsAt),
    index('papers_title_key_idx').on(t.titleKey),
    index('papers_search_rev_idx').on(t.searchRev),
    index('papers_title_trgm_idx')
      .using('gin', t.title.op('gin_trgm_ops'))
      .where(sql`indexed`),
    index('papers_published_idx').on(t.publishedOn),
    index('papers_first_seen_idx').on(t.firstSeenAt),
    // The order of `/paper latest` (and family lists), null placement included (Postgres' `desc` puts nulls first): a
    // day's listing shares one date, so without it every call sorts the corpus.
    index('papers_latest_idx').on(
      t.publishedOn.desc().nullsLast(),
      t.firstSeenAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** Provenance: every source item that described a paper, raw item kept. */
export const paperSources = pgTable(
  'paper_sources',
  {
    id: serial().primaryKey(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    /** `seed:000`, `arxiv-rss`, `arxiv-api`, `hf-daily`, ... */
    source: text().notNull(),
    /** The item's id within its source (versioned arXiv id, seed entry id, HF paper id). */
    externalId: text().notNull(),
    version: integer(),
    announceType: text(),
    raw: jsonb(),
    seenAt: createdAt(),
  },
  (t) => [
    uniqueIndex('paper_sources_source_external_uq').on(t.source, t.externalId),
    index('paper_sources_paper_idx').on(t.paperId),
  ],
);

/** Human-written notes (the seeds' structured Chinese notes, repaired). */
export const notes = pgTable(
  'notes',
  {
    id: serial().primaryKey(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    source: text().notNull(),
    lang: text().notNull(),
    heading: text().notNull().default(''),
    motivation: text().notNull().default(''),
    method: jsonb().$type<string[]>().notNull().default([]),
    results: text().notNull().default(''),
    takeaways: text().notNull().default(''),
    body: text().notNull(),
    restoredChars: integer().notNull().default(0),
    unresolvedChars: integer().notNull().default(0),
    /** Restored characters whose choice was a close call (seeds/repair): the card says the repair is uncertain. */
    uncertainChars: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('notes_paper_source_lang_uq').on(t.paperId, t.source, t.lang)],
);

/** LLM summaries: one per paper + language + prompt version, ever. */
export const summaries = pgTable(
  'summaries',
  {
    id: serial().primaryKey(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    lang: text().notNull(),
    promptVersion: text().notNull(),
    /** `ok`, `failed` (tried again at `retryAt` unless null) or `fallback` (extractive, not LLM-written). */
    status: text().notNull(),
    model: text(),
    content: jsonb(),
    error: text(),
    inputTokens: integer().notNull().default(0),
    outputTokens: integer().notNull().default(0),
    cacheReadTokens: integer().notNull().default(0),
    cacheWriteTokens: integer().notNull().default(0),
    /** Every attempt's cost, summed (the day's spend is counted in the ledger, db/queries/spend.ts). */
    costUsd: numeric({ precision: 12, scale: 6 }).notNull().default('0'),
    /** Failed attempts so far (`failed` rows); see src/services/llm/backoff.ts. */
    attempts: integer().notNull().default(0),
    /** A `failed` row is tried again from this time; null when it failed for good. */
    retryAt: timestamp({ withTimezone: true }),
    /** What the model read: `abstract`, or `full-text` (the paper's extracted text; an abstract-based row is redone once the text arrives). */
    basis: text().notNull().default('abstract'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('summaries_paper_lang_prompt_uq').on(t.paperId, t.lang, t.promptVersion),
    index('summaries_created_idx').on(t.createdAt),
  ],
);

/**
 * A paper's full text, per arXiv version: the units that matter (src/core/papers/paper-text.ts) read from
 * arXiv's HTML, or why there is none (`no-html`: arXiv has no HTML for this version; `failed`: the
 * fetch failed, tried again at `retryAt` unless null), and the settings the rules extractor found.
 */
export const paperTexts = pgTable(
  'paper_texts',
  {
    id: serial().primaryKey(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    /** The arXiv version read (0 when the paper's version is unknown). */
    version: integer().notNull(),
    /** `ok`, `no-html` or `failed`. */
    status: text().notNull(),
    reason: text(),
    url: text().notNull(),
    sections: jsonb()
      .$type<{ heading: string; kind: 'abstract' | 'body' | 'appendix'; text: string }[]>()
      .notNull()
      .default([]),
    /** Characters stored, and whether units were left out to stay under the cap. */
    chars: integer().notNull().default(0),
    truncated: boolean().notNull().default(false),
    /** The rules extractor's settings, each with its evidence (src/core/papers/settings-rules.ts). */
    rulesSettings: jsonb().$type<{ key: string; value: string; evidence: string }[]>().notNull().default([]),
    attempts: integer().notNull().default(0),
    retryAt: timestamp({ withTimezone: true }),
    fetchedAt: createdAt(),
  },
  (t) => [uniqueIndex('paper_texts_paper_version_uq').on(t.paperId, t.version)],
);

/**
 * Every arXiv version of a GRPO-family paper the bot has seen revised (a `replace`, or any newer
 * version a feed brings): what the bot showed of it then (title, abstract, the rules extractor's
 * settings of its text, the summary it had) and how it differs from the version before
 * (src/core/papers/version-diff.ts). The row of the version replaced is written with the new one, so
 * the old abstract is never lost to the paper's update.
 */
export const paperVersions = pgTable(
  'paper_versions',
  {
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    /** The day the version was announced (a replace's date; v1's publication date), when known. */
    announcedOn: date({ mode: 'string' }),
    title: text().notNull(),
    abstract: text().notNull(),
    /** The rules extractor's settings of this version's text; null while unread or when it has no text. */
    settings: jsonb().$type<{ key: string; value: string; evidence: string }[]>(),
    /** The summaries (content per language) the paper had when this version was replaced by a meaningful change. */
    summary: jsonb().$type<Record<string, unknown>>(),
    /** What changed from the version before, one short item each ("group size 8 -> 16"); null until compared. */
    changes: jsonb().$type<string[]>(),
    /** Whether the change matters (re-summarised, subscribers told); false for wording only. */
    meaningful: boolean(),
    /** The card's line: "v3 (2026-11-20): group size 8 -> 16" or "v3: wording only". */
    note: text(),
    diffedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.paperId, t.version] })],
);

/**
 * The outbox of version notes: one row per user, paper and version, ever (like `notifications_sent`,
 * whose key is one per user and paper). Planned `pending` when the change is found, `sending`
 * before the send and `sent` after, through src/services/outbox/send.ts.
 */
export const versionNotices = pgTable(
  'version_notices',
  {
    userId: text().notNull(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    /** Why the user is told: `family` (a family subscription) or `voter` (voted it into the queue). */
    reason: text().notNull(),
    /** The server whose queue they voted in (the channel fallback), when known. */
    guildId: text(),
    via: text().notNull().default('dm'),
    status: text().notNull().default('pending'),
    nonce: text().notNull(),
    attempts: integer().notNull().default(0),
    messageId: text(),
    error: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.paperId, t.version] }), index('version_notices_status_idx').on(t.status)],
);

/** Citation edges: citing paper -> cited paper. */
export const citations = pgTable(
  'citations',
  {
    citingPaperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    citedPaperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    source: text().notNull(),
    context: text(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.citingPaperId, t.citedPaperId] }), index('citations_cited_idx').on(t.citedPaperId)],
);

/** Per-server settings (moderator role, channel for subscription mentions). */
/**
 * Citation counts from Semantic Scholar (jobs/refresh-citations.ts), one row per paper it knows,
 * replaced by each daily refresh; `fetchedAt` says how fresh the figures a card shows are.
 */
export const citationCounts = pgTable('citation_counts', {
  paperId: integer()
    .primaryKey()
    .references(() => papers.id, { onDelete: 'cascade' }),
  /** Semantic Scholar's own id for the paper. */
  s2PaperId: text(),
  citationCount: integer().notNull(),
  influentialCount: integer().notNull(),
  fetchedAt: timestamp({ withTimezone: true }).notNull(),
});

export const guilds = pgTable('guilds', {
  guildId: text().primaryKey(),
  moderatorRoleId: text(),
  notifyChannelId: text(),
  updatedAt: createdAt(),
});

/** Digest configuration per channel. */
export const channels = pgTable('channels', {
  channelId: text().primaryKey(),
  guildId: text().notNull(),
  enabled: boolean().notNull().default(true),
  /** Local time `HH:MM` in `timezone` (IANA). */
  postTime: text().notNull().default('09:00'),
  timezone: text().notNull().default('UTC'),
  /** `daily` or `weekly` (on `weekday`, 0 = Sunday). */
  cadence: text().notNull().default('daily'),
  weekday: integer(),
  topics: text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  language: text().notNull().default('en'),
  maxPapers: integer().notNull().default(10),
  minScore: real().notNull().default(0),
  /** `nothing` or `notice`. */
  quietDay: text().notNull().default('nothing'),
  threadPerPaper: boolean().notNull().default(false),
  /** Weekly digests only: the first message carries a picture of the week's papers by family. */
  headerImage: boolean().notNull().default(false),
  pingRoleId: text(),
  lastDigestAt: timestamp({ withTimezone: true }),
  /** Set when the bot can no longer post here (channel gone, access or permission lost): skipped until set up again. */
  deliveryError: text(),
  deliveryErrorAt: timestamp({ withTimezone: true }),
  createdBy: text(),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

/** Outbox: one row per message part of a digest; delivered exactly once (nonce = Discord message nonce). */
export const deliveries = pgTable(
  'deliveries',
  {
    id: serial().primaryKey(),
    channelId: text().notNull(),
    /** The digest's key, e.g. the local date `2026-11-21`. */
    digestKey: text().notNull(),
    part: integer().notNull(),
    nonce: text().notNull(),
    /** `pending`, `sending`, `sent` or `failed`. */
    status: text().notNull().default('pending'),
    payload: jsonb().notNull(),
    paperIds: integer()
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    messageId: text(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    /** The delivery run sending this part now (host/pid/tag): only it sends, until its claim lapses. */
    claimedBy: text(),
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deliveries_channel_digest_part_uq').on(t.channelId, t.digestKey, t.part),
    uniqueIndex('deliveries_nonce_uq').on(t.nonce),
    index('deliveries_status_idx').on(t.status),
  ],
);

/** A user's delivery preferences for subscriptions. */
export const subscribers = pgTable('subscribers', {
  userId: text().primaryKey(),
  guildId: text(),
  /** `dm`, `channel` or `off`. */
  mode: text().notNull().default('dm'),
  channelId: text(),
  dailyCap: integer().notNull().default(10),
  updatedAt: createdAt(),
});

/** What a user follows: a topic slug, keyword (with optional exclusion), author or family. */
export const userSubscriptions = pgTable(
  'user_subscriptions',
  {
    id: serial().primaryKey(),
    userId: text().notNull(),
    guildId: text(),
    /** `topic`, `keyword`, `author` or `family`. */
    kind: text().notNull(),
    value: text().notNull(),
    exclude: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_subscriptions_uq').on(t.userId, t.kind, t.value),
    index('user_subscriptions_kind_idx').on(t.kind, t.value),
  ],
);

/**
 * Each paper reaches each user once, ever: an outbox row per (user, paper), written `pending`
 * before anything is sent and `sent` after. Rows sharing a nonce are one message (a bundle).
 */
export const notificationsSent = pgTable(
  'notifications_sent',
  {
    userId: text().notNull(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    /** Where it goes (planned) or went: `dm` or `channel`. */
    via: text().notNull(),
    /** Over the user's daily cap: listed in one "and N more" message instead of its own. */
    bundled: boolean().notNull().default(false),
    /** `pending`, `sending`, `sent` or `failed` (final: permanent failure, or out of attempts). */
    status: text().notNull().default('pending'),
    /** The message nonce, the same on every retry; shared by the rows of one bundle. */
    nonce: text(),
    attempts: integer().notNull().default(0),
    messageId: text(),
    /** Why it failed (or the last transient error). */
    reason: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.paperId] }), index('notifications_sent_status_idx').on(t.status)],
);

/** The reading-group queue, per server. */
export const queueItems = pgTable(
  'queue_items',
  {
    id: serial().primaryKey(),
    guildId: text().notNull(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    nominatedBy: text().notNull(),
    nominatedAt: createdAt(),
    /** `queued`, `scheduled`, `done` or `removed`. */
    status: text().notNull().default('queued'),
    scheduledFor: date({ mode: 'string' }),
    announcementMessageId: text(),
    threadId: text(),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('queue_items_guild_paper_uq').on(t.guildId, t.paperId),
    index('queue_items_guild_status_idx').on(t.guildId, t.status),
  ],
);

/** One vote per user per queue item. */
export const votes = pgTable(
  'votes',
  {
    queueItemId: integer()
      .notNull()
      .references(() => queueItems.id, { onDelete: 'cascade' }),
    userId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.queueItemId, t.userId] })],
);

/** Per-feed cursor and health: conditional-request validators, last success and error. */
export const feedState = pgTable('feed_state', {
  /** `arxiv-rss:cs.LG`, `arxiv-api`, `hf-daily`. */
  feed: text().primaryKey(),
  etag: text(),
  lastModified: text(),
  /** Where the next run resumes: the last fully polled date (HF), the end of the last query window (API). */
  cursor: text(),
  /** RSS: a hash of the last batch's ids, to tell a stale batch from a new one (dates are not reliable). */
  batchKey: text(),
  batchDate: text(),
  /** Set by the first successful poll; until then everything stored is not announced. */
  initializedAt: timestamp({ withTimezone: true }),
  lastSuccessAt: timestamp({ withTimezone: true }),
  lastErrorAt: timestamp({ withTimezone: true }),
  lastError: text(),
  consecutiveFailures: integer().notNull().default(0),
  /** `ok`, `stale` (same batch on a new arXiv day), `empty` (no items on a weekday), `failing`. */
  health: text(),
  healthDetail: text(),
  lastItemCount: integer(),
  lastNewCount: integer(),
  lastFamilyCount: integer(),
  updatedAt: createdAt(),
});

/** One row per job run, for /status. */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: serial().primaryKey(),
    job: text().notNull(),
    startedAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
    /** `running`, `ok`, `partial` (some of its work failed: `error` says what), `failed`, `skipped` or `interrupted` (its process died; found by the next run under its lock). */
    status: text().notNull().default('running'),
    stats: jsonb(),
    error: text(),
  },
  (t) => [index('job_runs_job_started_idx').on(t.job, t.startedAt)],
);

/** Small key/value state (e.g. the hash of the last registered command definitions). */
export const appState = pgTable('app_state', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: createdAt(),
});

/**
 * Which process answers a Discord interaction. Discord sends every interaction to every gateway
 * connection of the token's shard, so each process running on one token inserts the interaction's
 * id first and answers only if its insert made the row (`db/queries/interaction-claims.ts`). Rows
 * are only needed for the seconds both processes take to see an interaction; old ones are pruned.
 */
export const interactionClaims = pgTable(
  'interaction_claims',
  {
    /** The interaction's id (a Discord snowflake: unique per interaction). */
    id: text().primaryKey(),
    claimedAt: timestamp({ withTimezone: true }).notNull(),
    /** The process that answers it: host, pid and a random tag (`src/adapters/discord/claim.ts`). */
    by: text().notNull(),
  },
  (t) => [index('interaction_claims_claimed_at_idx').on(t.claimedAt)],
);

/** The LLM judge's decision on a paper, once per paper and judge version (prompt + rule text). */
export const familyJudgements = pgTable(
  'family_judgements',
  {
    id: serial().primaryKey(),
    paperId: integer()
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    judgeVersion: text().notNull(),
    /** `ok` (a decision) or `failed` (the answer was unusable; the filter's verdict stands). */
    status: text().notNull(),
    inFamily: boolean(),
    reason: text(),
    families: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    model: text(),
    error: text(),
    inputTokens: integer().notNull().default(0),
    outputTokens: integer().notNull().default(0),
    cacheReadTokens: integer().notNull().default(0),
    cacheWriteTokens: integer().notNull().default(0),
    costUsd: numeric({ precision: 12, scale: 6 }).notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('family_judgements_paper_version_uq').on(t.paperId, t.judgeVersion),
    index('family_judgements_created_idx').on(t.createdAt),
  ],
);

/** A moderator's correction of the filter: wins over the filter and the judge everywhere. */
export const familyMarks = pgTable('family_marks', {
  paperId: integer()
    .primaryKey()
    .references(() => papers.id, { onDelete: 'cascade' }),
  inFamily: boolean().notNull(),
  reason: text(),
  setBy: text().notNull(),
  setByName: text(),
  guildId: text(),
  setAt: createdAt(),
});

/** One row type per table, named after what a row is. */
export type Paper = typeof papers.$inferSelect;
export type NewPaper = typeof papers.$inferInsert;
export type PaperSource = typeof paperSources.$inferSelect;
export type Note = typeof notes.$inferSelect;
export type Summary = typeof summaries.$inferSelect;
export type FullText = typeof paperTexts.$inferSelect;
export type PaperVersion = typeof paperVersions.$inferSelect;
export type VersionNotice = typeof versionNotices.$inferSelect;
export type CitationCountRow = typeof citationCounts.$inferSelect;
export type Guild = typeof guilds.$inferSelect;
export type Channel = typeof channels.$inferSelect;
export type Delivery = typeof deliveries.$inferSelect;
export type Subscriber = typeof subscribers.$inferSelect;
export type UserSubscription = typeof userSubscriptions.$inferSelect;
export type NotificationSent = typeof notificationsSent.$inferSelect;
export type QueueItem = typeof queueItems.$inferSelect;
export type FeedState = typeof feedState.$inferSelect;
export type JobRun = typeof jobRuns.$inferSelect;
export type FamilyJudgement = typeof familyJudgements.$inferSelect;
export type FamilyMark = typeof familyMarks.$inferSelect;
