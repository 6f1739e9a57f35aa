import { optionsOf, type Choice, type Command, type CommandDefinition, type CommandDeps } from '../src/core/command.ts';
import { CUSTOM_IDS } from '../src/core/custom-id.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { untrustedText, type Reply, type ReplyFile } from '../src/core/reply.ts';
import { BACKGROUND_YEARS, FAMILIES, findFamily, type FamilyEntry, familyRef } from '../src/core/papers/families.ts';
import { familyTreeDot, treeFamilies, type TreeFamily } from '../src/core/pictures/family-tree.ts';
import { drawGraph, pictureFile, tryDraw } from '../src/services/render/picture.ts';
import { FAMILY_PAGE_SIZE, familyListReply, familyReply } from '../src/core/views/family.ts';
import { familyTreeAlt, familyTreeFileName, familyTreeReply } from '../src/core/views/family-tree.ts';
import { pageInRange, pastTheEnd } from '../src/core/views/pager.ts';
import { definingPaper, familyCiters, familyCounts, familyMembers } from '../db/queries/families.ts';
import { grpoFamilyCount } from '../db/queries/status.ts';

/** Papers citing the defining paper listed under a family (the newest; the count says how many in all). */
const CITERS_SHOWN = 5;

/** At most this many pages: enough for any family, and a bound on what a forged custom id can ask for. */
const PAGE_MAX = 100;

const definition = {
  name: 'family',
  description: 'The GRPO family tree: algorithms, the papers that build on them, TRL settings',
  subcommands: [
    {
      name: 'show',
      description: 'One family: description, defining paper, papers building on it, TRL recipe',
      options: [
        {
          name: 'name',
          description: 'The family, e.g. GSPO or Dr. GRPO',
          type: 'string',
          required: true,
          autocomplete: true,
          maxLength: 60,
        },
      ],
    },
    { name: 'list', description: "Every family with paper counts and this month's new papers" },
    {
      name: 'tree',
      description: 'The family tree as a picture: what builds on what, papers per family',
      options: [
        {
          name: 'family',
          description: 'Highlight a family and what builds on it, e.g. GSPO',
          type: 'string',
          autocomplete: true,
          maxLength: 60,
        },
      ],
    },
  ],
} as const satisfies CommandDefinition;

/** `/family show|list|tree`: the GRPO family tree — what each algorithm is, what builds on it, how to run it with TRL. */
export const family: Command = {
  definition,
  async execute(input, deps) {
    switch (input.subcommand) {
      case 'show':
        return showPage(deps, resolveFamily(optionsOf(definition, input, 'show').name), 1, input.guildId);
      case 'list':
        return list(deps);
      case 'tree':
        return tree(deps, optionsOf(definition, input, 'tree').family);
      default:
        throw new UserFacingError('Use /family show name:<family>, /family list or /family tree.');
    }
  },
  async component(input, deps) {
    const pressed = CUSTOM_IDS.familyPage.decode(input.customId);
    if (!pressed || pressed.page < 1 || pressed.page > PAGE_MAX)
      throw new UserFacingError('That button no longer works. Run /family show again.');
    return { ...(await showPage(deps, resolveFamily(pressed.slug), pressed.page, input.guildId)), update: true };
  },
  async autocomplete(_input, focused) {
    return familyChoices(focused.value);
  },
};

/** The families whose name or slug contains what was typed (all of them for an empty option); at most 25. */
export function familyChoices(typed: string): Choice[] {
  const q = typed.trim().toLowerCase();
  return FAMILIES.filter((f) => !q || f.name.toLowerCase().includes(q) || f.slug.includes(q))
    .slice(0, 25)
    .map((f) => ({ name: f.name, value: f.name }));
}

/** The family a user typed, or a short answer naming the known ones (what was typed is shown as text). */
export function resolveFamily(typed: string): FamilyEntry {
  const found = findFamily(typed);
  if (found) return found;
  throw new UserFacingError(
    `No family called "${untrustedText(typed.slice(0, 60))}". Known families: ${FAMILIES.map((f) => f.name).join(', ')}.`,
  );
}

async function showPage(
  deps: CommandDeps,
  f: FamilyEntry,
  requested: number,
  guildId: string | undefined,
): Promise<Reply> {
  const ref = familyRef(f);
  const membersOn = (page: number) =>
    familyMembers(deps.db, ref, {
      limit: FAMILY_PAGE_SIZE,
      offset: (page - 1) * FAMILY_PAGE_SIZE,
      ...(guildId && { guildId }),
    });
  // The picture depends on the family only: it is drawn while the page is read.
  const [defining, first, citers, picture] = await Promise.all([
    definingPaper(deps.db, ref),
    membersOn(requested),
    familyCiters(deps.db, ref, CITERS_SHOWN),
    treePicture(deps, f),
  ]);
  // A page past the end (an old button after papers left the family, a forged id) shows the last one.
  const page = pageInRange(requested, first.total, FAMILY_PAGE_SIZE);
  const members = page === requested ? first : await membersOn(page);
  const reply = familyReply(
    f,
    defining,
    { ...members, page },
    citers,
    (p) => CUSTOM_IDS.familyPage.encode({ slug: f.slug, page: p }),
    picture.file,
  );
  return pastTheEnd(reply, requested, page);
}

async function list(deps: CommandDeps): Promise<Reply> {
  const [{ counts, month }, familyTotal] = await Promise.all([monthCounts(deps), grpoFamilyCount(deps.db)]);
  const rows = FAMILIES.map((entry) => ({
    entry,
    ...(counts.get(entry.name) ?? { total: 0, thisMonth: 0, citing: 0 }),
  }));
  return familyListReply(rows, month, familyTotal);
}

async function tree(deps: CommandDeps, typed: string | undefined): Promise<Reply> {
  const f = typed === undefined ? undefined : resolveFamily(typed);
  const { families, month, file } = await treePicture(deps, f);
  return familyTreeReply({ families, month, ...(f && { highlight: f.name }), ...(file && { file }) });
}

/** Every family's papers in the corpus and this (UTC) month's news, and the month's name. */
async function monthCounts(
  deps: CommandDeps,
): Promise<{ counts: Map<string, { total: number; thisMonth: number; citing: number }>; month: string }> {
  const now = deps.now();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const counts = await familyCounts(deps.db, FAMILIES.map(familyRef), { from, to });
  return { counts, month: from.toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }) };
}

/** The tree with its counts, drawn with `highlight` highlighted; no file when drawing failed (the text says the same). */
async function treePicture(
  deps: CommandDeps,
  highlight?: FamilyEntry,
): Promise<{ families: TreeFamily[]; month: string; file?: ReplyFile }> {
  const { counts, month } = await monthCounts(deps);
  const families = treeFamilies(FAMILIES, counts);
  const file = await tryDraw(deps.log, 'family tree', async () =>
    pictureFile(
      await drawGraph(
        familyTreeDot({
          families,
          background: BACKGROUND_YEARS,
          month,
          ...(highlight && { highlight: highlight.name }),
        }),
      ),
      familyTreeFileName(highlight?.slug),
      familyTreeAlt(families, highlight?.name),
    ),
  );
  return { families, month, ...(file && { file }) };
}
