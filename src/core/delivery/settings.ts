/**
 * Reads `/digest setup` options into digest settings, server side, whatever the client sent.
 * Pure. Every mistake is a UserFacingError that says what to type instead.
 */
import type { OptionValue } from '../command.ts';
import { UserFacingError } from '../errors.ts';
import { TOPIC_SLUGS } from '../papers/topics.ts';
import { isTimeZone } from './schedule.ts';

/** What `/digest setup` sets; every field, so a setup is a complete description of the digest. */
export interface DigestSettings {
  postTime: string;
  timezone: string;
  cadence: 'daily' | 'weekly';
  /** 0 = Sunday; null for daily digests. */
  weekday: number | null;
  topics: string[];
  language: 'en' | 'zh';
  maxPapers: number;
  minScore: number;
  quietDay: 'nothing' | 'notice';
  pingRoleId: string | null;
  /** One message per paper, each opening a discussion thread. */
  threadPerPaper: boolean;
  /** Weekly digests: a picture of the week's papers by family on the first message. */
  headerImage: boolean;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** `9:00`, `09:00` or `21:30` -> `HH:MM`; undefined when it is not a 24-hour time. */
export function parsePostTime(raw: string): string | undefined {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(raw.trim());
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : undefined;
}

/** The runtime's spelling of an IANA zone (`europe/berlin` -> `Europe/Berlin`); undefined when unknown. */
export function canonicalZone(raw: string): string | undefined {
  const tz = raw.trim();
  if (!tz || !isTimeZone(tz)) return undefined;
  return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
}

/** A comma (or space) separated list of topic slugs; `all` or nothing means every topic. */
export function parseTopics(raw: string): string[] {
  const parts = raw
    .split(/[\s,]+/)
    .map((t) => t.trim().toLowerCase().replace(/^#/, ''))
    .filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'all')) return [];
  const unknown = parts.filter((p) => !(TOPIC_SLUGS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new UserFacingError(
      `Unknown topic${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Topics: ${TOPIC_SLUGS.join(', ')} (or all). /topics describes them.`,
    );
  }
  return [...new Set(parts)];
}

/** A channel as typed: a Discord mention `<#123>`, `#name`, or a raw id or name (the console has no picker). */
export function parseChannelRef(raw: string): string {
  const s = raw.trim();
  const mention = /^<#(\d+)>$/.exec(s);
  const id = mention ? mention[1]! : s.replace(/^#/, '');
  if (!id || id.length > 100 || /\s/.test(id))
    throw new UserFacingError(`"${raw}" is not a channel. Pick one, e.g. channel:#papers.`);
  return id;
}

/**
 * The settings a setup asks for; options left out get their defaults (daily, every topic, English,
 * 10 papers, any score, no quiet-day notice, no ping, no threads, no header picture). Options' types and ranges were already
 * checked against the definition by the dispatcher.
 */
export function parseDigestSettings(o: Record<string, OptionValue | undefined>): DigestSettings {
  const postTime = parsePostTime(String(o.time ?? ''));
  if (!postTime)
    throw new UserFacingError(`time must be a 24-hour time like 09:00 or 21:30, not "${String(o.time ?? '')}".`);
  const timezone = canonicalZone(String(o.timezone ?? ''));
  if (!timezone)
    throw new UserFacingError(
      `"${String(o.timezone ?? '')}" is not an IANA time zone. Use one like Europe/Berlin, America/New_York, Asia/Shanghai or UTC.`,
    );
  const cadence = o.cadence === 'weekly' ? 'weekly' : 'daily';
  if (o.weekday !== undefined && cadence !== 'weekly')
    throw new UserFacingError('weekday is for weekly digests: add cadence:weekly, or leave weekday out.');
  const weekday = cadence === 'weekly' ? Number(o.weekday ?? 1) : null;
  if (weekday !== null && !(Number.isInteger(weekday) && weekday >= 0 && weekday <= 6))
    throw new UserFacingError('weekday must be 0 (Sunday) to 6 (Saturday).');
  const maxPapers = Number(o.max ?? 10);
  if (!Number.isInteger(maxPapers) || maxPapers < 1 || maxPapers > 25)
    throw new UserFacingError('max must be a whole number from 1 to 25.');
  const minScore = Number(o.min_score ?? 0);
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 1)
    throw new UserFacingError('min_score must be between 0 and 1.');
  const ping =
    o.ping_role === undefined
      ? null
      : String(o.ping_role)
          .trim()
          .replace(/^<@&(\d+)>$/, '$1');
  if (ping !== null && !/^\d{1,25}$/.test(ping)) throw new UserFacingError('ping_role must be a role of this server.');
  if (o.header_image === true && cadence !== 'weekly')
    throw new UserFacingError('header_image is for weekly digests: add cadence:weekly, or leave header_image out.');
  return {
    postTime,
    timezone,
    cadence,
    weekday,
    topics: parseTopics(String(o.topics ?? '')),
    language: o.language === 'zh' ? 'zh' : 'en',
    maxPapers,
    minScore,
    quietDay: o.quiet_day === 'notice' ? 'notice' : 'nothing',
    pingRoleId: ping,
    threadPerPaper: o.threads === true,
    headerImage: o.header_image === true,
  };
}
