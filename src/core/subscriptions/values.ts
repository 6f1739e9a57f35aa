/**
 * What users type into /subscribe and /unsubscribe, checked and normalised. Pure.
 * A subscription is named `<kind>:<value>` (`keyword:clip-higher`, `family:Dr. GRPO`).
 */
import { terms } from '../text/analyze.ts';
import { UserFacingError } from '../errors.ts';
import { FAMILY_NAMES } from '../papers/families.ts';
import { TOPIC_SLUGS } from '../papers/topics.ts';
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from './match.ts';

export { FAMILY_NAMES };

/** A user follows at most this many things (Discord autocomplete shows 25 choices). */
export const MAX_SUBSCRIPTIONS = 25;

export const subscriptionLabel = (s: { kind: string; value: string }): string => `${s.kind}:${s.value}`;

/** `keyword:clip-higher` -> { kind, value }; undefined when it names no kind. */
export function parseSubscriptionLabel(label: string): { kind: SubscriptionKind; value: string } | undefined {
  const at = label.indexOf(':');
  if (at <= 0) return undefined;
  const kind = label.slice(0, at).trim().toLowerCase() as SubscriptionKind;
  const value = label.slice(at + 1).trim();
  return SUBSCRIPTION_KINDS.includes(kind) && value ? { kind, value } : undefined;
}

const collapse = (s: string) => s.trim().replace(/\s+/g, ' ');

/** The stored value for a kind, or a UserFacingError that says what would be accepted. */
export function normalizeValue(kind: SubscriptionKind, raw: string): string {
  const s = collapse(raw);
  switch (kind) {
    case 'topic': {
      const slug = s.toLowerCase();
      if (!(TOPIC_SLUGS as readonly string[]).includes(slug))
        throw new UserFacingError(
          `"${s}" is not a topic. Pick one from the list (/topics shows them all), e.g. topic:exploration-entropy.`,
        );
      return slug;
    }
    case 'family': {
      const name = FAMILY_NAMES.find(
        (f) =>
          f.toLowerCase() === s.toLowerCase() ||
          f.toLowerCase().replace(/[^a-z0-9+]/g, '') === s.toLowerCase().replace(/[^a-z0-9+]/g, ''),
      );
      if (!name)
        throw new UserFacingError(
          `"${s}" is not a GRPO-family name we track. Pick one from the list, e.g. family:DAPO.`,
        );
      return name;
    }
    case 'keyword': {
      const keyword = s.toLowerCase();
      if (Array.from(keyword.replace(/[^\p{L}\p{N}]/gu, '')).length < 2)
        throw new UserFacingError('A keyword needs at least two letters or digits, e.g. keyword:clip-higher.');
      if (/^[\p{Script=Latin}\s\p{P}\d]+$/u.test(keyword) && terms(keyword).length === 0)
        throw new UserFacingError(
          `"${s}" is in nearly every paper, so it would match them all. Pick a word of the field, e.g. keyword:clip-higher.`,
        );
      return keyword;
    }
    case 'author': {
      if (Array.from(s.replace(/[^\p{L}]/gu, '')).length < 2)
        throw new UserFacingError("Give an author's name, e.g. author:Zhihong Shao (initials work: author:Z. Shao).");
      return s;
    }
  }
}

/** Suggestions from a fixed list: what contains the typed text, those starting with it first. */
export function listChoices(values: readonly string[], typed: string): { name: string; value: string }[] {
  const q = typed.trim().toLowerCase();
  const hits = values.filter((v) => v.toLowerCase().includes(q));
  hits.sort((a, b) => Number(!a.toLowerCase().startsWith(q)) - Number(!b.toLowerCase().startsWith(q)));
  return hits.slice(0, 25).map((v) => ({ name: v.slice(0, 100), value: v.slice(0, 100) }));
}
