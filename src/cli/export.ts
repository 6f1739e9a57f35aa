import { Option, type Command as Cli } from 'commander';
import { UserFacingError } from '../core/errors.ts';
import { FAMILY_NAMES, familyRef, findFamily } from '../core/papers/families.ts';
import { bibtexEntries } from '../core/papers/bibtex.ts';
import { exportedPaper } from '../core/views/paper-json.ts';
import type { Db } from '../../db/client.ts';
import { exportCorpus } from '../../db/queries/export.ts';
import { citableFamily, citableQueue, readingGroupGuilds, type CitableRow } from '../../db/queries/bibtex.ts';
import { print, printJson, safeJson, withApp, writeLine } from './shared.ts';

interface ExportOptions {
  format: 'jsonl' | 'json' | 'bibtex';
  family?: string;
  queue?: boolean;
  history?: boolean;
  guild?: string;
}

/** `grpo-digest export`: the corpus as JSON lines or JSON, or the GRPO family (or a family, the queue, the history) as BibTeX. */
export function addExportCommand(cli: Cli): void {
  cli
    .command('export')
    .description(
      'Write the whole corpus (papers with notes, sources and citations) to stdout, or GRPO-family papers as BibTeX',
    )
    .addOption(
      new Option('--format <format>', 'output format (bibtex: the GRPO family, or the subset below)')
        .choices(['jsonl', 'json', 'bibtex'])
        .default('jsonl'),
    )
    .addOption(new Option('--family <name>', "bibtex: one family's members, its defining paper included (e.g. GSPO)"))
    .addOption(
      new Option('--queue', "bibtex: the reading group's queue (scheduled, then by votes)").conflicts('family'),
    )
    .addOption(
      new Option('--history', 'bibtex: the papers the reading group has read, in order').conflicts(['family', 'queue']),
    )
    .addOption(new Option('--guild <id>', 'with --queue or --history: the server, when the bot serves several'))
    .action((o: ExportOptions) => {
      checkOptions(o);
      return withApp(
        async (app) => {
          if (o.format !== 'bibtex') return writeCorpus(app.deps.db, o.format);
          const papers = await bibtexPapers(app.deps.db, o);
          if (papers.length === 0) process.stderr.write(`grpo-digest: ${nothingToExport(o)}\n`);
          bibtexEntries(papers).forEach((e, i) => {
            if (i > 0) writeLine('');
            print(e.text);
          });
        },
        { quiet: true },
      );
    });
}

/** Mistakes caught before the database is opened (exit 2). */
function checkOptions(o: ExportOptions): void {
  const subset = o.family !== undefined || o.queue || o.history;
  if (subset && o.format !== 'bibtex')
    throw new UserFacingError('--family, --queue and --history choose papers to cite: add --format bibtex.');
  if (o.guild !== undefined && !o.queue && !o.history)
    throw new UserFacingError('--guild names whose reading group to export: add --queue or --history.');
  if (o.family !== undefined && !findFamily(o.family))
    throw new UserFacingError(`No family is called "${o.family}". Families: ${FAMILY_NAMES.join(', ')}.`);
}

async function writeCorpus(db: Db, format: 'jsonl' | 'json'): Promise<void> {
  const rows = (await exportCorpus(db)).map(exportedPaper);
  if (format === 'json') printJson(rows);
  else for (const r of rows) writeLine(safeJson(r));
}

async function bibtexPapers(db: Db, o: ExportOptions): Promise<CitableRow[]> {
  if (o.queue || o.history) return citableQueue(db, await guildOf(db, o.guild), o.history ? 'history' : 'queue');
  const family = o.family !== undefined ? findFamily(o.family) : undefined;
  return citableFamily(db, family && familyRef(family));
}

/** The server whose reading group is meant: the one given, else the only one with a reading group. */
async function guildOf(db: Db, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const guilds = await readingGroupGuilds(db);
  if (guilds.length > 1)
    throw new UserFacingError(
      `${guilds.length} servers have a reading group (${guilds.join(', ')}): add --guild <id> to choose one.`,
    );
  return guilds[0] ?? '';
}

function nothingToExport(o: ExportOptions): string {
  if (o.history) return 'the reading group has read nothing yet; nothing to export.';
  if (o.queue) return "the reading group's queue is empty; nothing to export.";
  if (o.family !== undefined) return `no stored paper is in ${findFamily(o.family)?.name ?? o.family} yet.`;
  return 'no GRPO-family paper is stored yet.';
}
