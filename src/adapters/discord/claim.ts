import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RESTJSONErrorCodes, type Interaction } from 'discord.js';
import { claimInteraction, pruneInteractionClaims } from '../../../db/queries/interaction-claims.ts';
import type { CommandDeps } from '../../core/command.ts';
import { DATABASE_DOWN, GENERIC_ERROR } from '../../core/dispatch.ts';
import { isDatabaseUnavailable } from '../../core/errors.ts';
import { errorReply } from '../../core/reply.ts';
import { renderInteraction } from './render.ts';

/**
 * Who answers an interaction when several processes run on one token. Discord sends each
 * interaction to every gateway connection of its shard, so every process receives it; each first
 * claims its id in Postgres (`interaction_claims`), and only the one whose insert made the row
 * answers it. The others drop it without a word.
 */
export interface Claims {
  /** This process's name in the claims it makes: host, pid and a random tag (two apps in one process differ). */
  readonly by: string;
  /** True: this process answers; false: another one claimed it first. Rejects when the database cannot say. */
  claim(interactionId: string): Promise<boolean>;
}

/** Claims older than this are removed: Discord's interaction tokens last 15 minutes. */
const KEEP_MS = 60 * 60 * 1000;
/** How often (at most) a process prunes, after one of its claims. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export function databaseClaims(deps: Pick<CommandDeps, 'db' | 'now' | 'log'>): Claims {
  const by = `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
  let prunedAt = -Infinity;
  const prune = (now: Date) => {
    if (now.getTime() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now.getTime();
    // After the claim and not awaited: the answer never waits for it, and a failure only delays it.
    pruneInteractionClaims(deps.db, new Date(now.getTime() - KEEP_MS)).then(
      (removed) => deps.log.debug({ removed }, 'old interaction claims pruned'),
      (err: unknown) => deps.log.warn({ err }, 'could not prune old interaction claims'),
    );
  };
  return {
    by,
    async claim(interactionId) {
      const now = deps.now();
      const mine = await claimInteraction(deps.db, interactionId, by, now);
      prune(now);
      return mine;
    },
  };
}

/** How long the process runs after the deadline before a claim still pending counts as timed out. */
const SETTLE_MS = 250;

/** What the claim said: this process answers, another one does, or none could be decided in time. */
export type Verdict = 'mine' | 'theirs' | { failed: unknown; timedOut: boolean };

/**
 * The claim's verdict, or a failure when the database did not answer by `deadline` (a
 * `performance.now()` time). A claim that succeeds after its deadline is ignored: the member was
 * already told, and no other process answers an id this one holds, so nothing is done twice.
 */
export function claimBy(claims: Claims, id: string, deadline: number): Promise<Verdict> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (v: Verdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    // The deadline is checked once the process has run for SETTLE_MS after it: when the process itself
    // was busy past it (a large index build, a loaded machine), the insert may not even have been
    // written, and the database's answer must not be taken for its silence.
    let timer: NodeJS.Timeout = setTimeout(
      () => {
        timer = setTimeout(
          () => settle({ failed: new Error('the claim did not finish in time'), timedOut: true }),
          SETTLE_MS,
        );
      },
      Math.max(0, deadline - performance.now()),
    );
    claims.claim(id).then(
      (mine) => settle(mine ? 'mine' : 'theirs'),
      (err: unknown) => settle({ failed: err, timedOut: false }),
    );
  });
}

/**
 * Answers an interaction this process could not claim, without handling it (it cannot know whether
 * another process did): the database message, or the generic one for anything else. It answers at
 * the deadline, not before, so that a process that did claim it answers first; Discord keeps only
 * the first answer, and a later one is refused (40060) and dropped here. A process alone on the
 * token so still answers every interaction, as it did before claims.
 */
export async function answerUnclaimed(
  i: Interaction,
  verdict: { failed: unknown; timedOut: boolean },
  deadline: number,
  log: CommandDeps['log'],
): Promise<void> {
  const down = verdict.timedOut || isDatabaseUnavailable(verdict.failed);
  const context = { interaction: i.id, type: i.type, user: i.user.id };
  if (down)
    log.warn({ err: verdict.failed, ...context }, 'could not claim an interaction: the database is unavailable');
  else log.error({ err: verdict.failed, ...context }, 'could not claim an interaction');
  const wait = deadline - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  try {
    if (i.isAutocomplete()) await i.respond([]);
    else if (i.isRepliable()) await i.reply(renderInteraction(errorReply(down ? DATABASE_DOWN : GENERIC_ERROR)));
  } catch (err) {
    if ((err as { code?: unknown }).code !== RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged) throw err;
    log.debug(context, 'another process answered the interaction first');
  }
}
