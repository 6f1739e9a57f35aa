import { parse } from '@retorquere/bibtex-parser';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paper } from '../../commands/paper.ts';
import { queue } from '../../commands/queue.ts';
import { paperSources, papers, queueItems } from '../../db/schema.ts';
import type { CommandInput } from '../../src/core/command.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { readable } from '../../src/core/papers/latex.ts';
import type { Reply } from '../../src/core/reply.ts';
import { useSeededDb } from '../helpers/seeded.ts';
import { commandInput } from './helpers.ts';

const cite = (id: string) => commandInput('cite', { id }, { canManage: false });

/** The entries of a reply's code block or attached file, parsed by a real BibTeX parser that must find no error. */
function entriesOf(reply: Reply) {
  const text = reply.files?.length
    ? new TextDecoder().decode(reply.files[0]!.data)
    : /^```bibtex\n([\s\S]*)\n```$/.exec(reply.content ?? '')?.[1];
  expect(text, reply.content).toBeDefined();
  const lib = parse(text!, { english: false });
  expect(lib.errors).toEqual([]);
  return lib.entries;
}

describe('/paper cite', () => {
  const seeded = useSeededDb();

  /** A paper as the arXiv feeds store it: authors, categories, and each feed item's provenance. */
  async function storeFeedPaper(
    over: Partial<typeof papers.$inferInsert>,
    sources: { source: string; version: number; raw: unknown }[] = [],
  ): Promise<number> {
    const [row] = await seeded()
      .db.insert(papers)
      .values({
        arxivId: '2511.04242',
        titleKey: `key-${Math.random()}`,
        title: 'Stable GRPO Training with Group Filtering',
        authors: ['Ada Lovelace', 'Émile Borel'],
        categories: ['cs.LG', 'cs.AI'],
        publishedOn: '2025-11-06',
        rulesFamily: true,
        ...over,
      })
      .returning({ id: papers.id });
    for (const s of sources)
      await seeded()
        .db.insert(paperSources)
        .values({ paperId: row!.id, externalId: `${over.arxivId ?? '2511.04242'}v${s.version}`, ...s });
    return row!.id;
  }

  it('answers a stored paper as a bibtex code block with its eprint fields, public and within 2,000 characters', async () => {
    const reply = await runCommand(paper, cite('https://arxiv.org/abs/2507.18071v2'), seeded().deps);
    expect(reply.ephemeral).toBeFalsy();
    expect(reply.content!.length).toBeLessThanOrEqual(2000);
    const [e] = entriesOf(reply);
    expect(e).toMatchObject({
      type: 'misc',
      key: 'groupsequence2025',
      fields: {
        title: 'Group Sequence Policy Optimization',
        eprint: '2507.18071',
        archiveprefix: 'arXiv',
        url: 'https://arxiv.org/abs/2507.18071',
      },
    });
    // A family's name stands for its defining paper, as in /paper show.
    expect((await runCommand(paper, cite('GSPO'), seeded().deps)).content).toBe(reply.content);
  });

  it("cites the venue from the newest feed item that gives arXiv's journal reference, as RSS or API wrote it", async () => {
    await storeFeedPaper({}, [
      { source: 'arxiv-rss', version: 1, raw: { announceType: 'new' } },
      { source: 'arxiv-api', version: 2, raw: { 'arxiv:journal_ref': { _: 'ICLR 2025 Workshop' } } },
      { source: 'arxiv-rss', version: 3, raw: { journalRef: 'ICLR 2026', doi: '10.48550/arXiv.2511.04242' } },
    ]);
    const [e] = entriesOf(await runCommand(paper, cite('2511.04242'), seeded().deps));
    expect(e).toMatchObject({
      type: 'inproceedings',
      key: 'lovelace2025stable',
      fields: { booktitle: 'ICLR 2026', year: '2026', doi: '10.48550/arXiv.2511.04242', primaryclass: 'cs.LG' },
    });
    expect(e!.fields.author).toEqual([
      { firstName: 'Ada', lastName: 'Lovelace' },
      { firstName: 'Émile', lastName: 'Borel' },
    ]);
  });

  it('keeps a stored hostile title and author inside their fields', async () => {
    const title = 'GRPO} , author={Mallory}, note={@everyone \\ 50% {';
    await storeFeedPaper({ arxivId: '2511.04343', title, authors: ['Mallory} and {Eve', 'Bob Smith'] }, [
      { source: 'arxiv-rss', version: 1, raw: { journalRef: '} @misc{x,' } },
    ]);
    const reply = await runCommand(paper, cite('2511.04343'), seeded().deps);
    const [e] = entriesOf(reply);
    // The title the cards show (a lone brace a feed left may be dropped there), and nothing more.
    expect(e!.fields.title).toBe(readable(title).replace(/\s+/g, ' ').trim());
    expect(e!.fields.title).toContain('author={Mallory}, note=');
    expect(e!.fields.author).toEqual([{ name: 'Mallory} and {Eve' }, { firstName: 'Bob', lastName: 'Smith' }]);
    expect(e!.fields.journal).toBe('} @misc{x,');
    expect(e!.fields.note).toBeUndefined();
  });

  it('autocompletes the id as /paper show does', async () => {
    const choices = await paper.autocomplete!(cite(''), { name: 'id', value: 'group sequence' }, seeded().deps);
    expect(choices[0]).toEqual({ name: '2507.18071 · Group Sequence Policy Optimization', value: '2507.18071' });
  });

  it('answers an unknown or malformed id privately, with what to try', async () => {
    const unknown = await runCommand(paper, cite('2511.99999'), seeded().deps);
    expect(unknown).toMatchObject({ ephemeral: true, content: expect.stringMatching(/not in the corpus yet/) });
    const malformed = await runCommand(paper, cite('9999.99999'), seeded().deps);
    expect(malformed).toMatchObject({ ephemeral: true, content: expect.stringMatching(/not a valid arXiv id/) });
  });
});

describe('/queue history bibtex:True', () => {
  const seeded = useSeededDb();
  const history = (guildId: string): CommandInput =>
    commandInput('history', { bibtex: true }, { guildId, canManage: false });

  it('attaches every paper the server has read, in the order read, and nothing of what waits or of other servers', async () => {
    const ids = async (...arxivIds: string[]) =>
      Promise.all(
        arxivIds.map(
          async (a) => (await seeded().db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, a)))[0]!.id,
        ),
      );
    const [gspo, second, waiting] = await ids('2507.18071', '2503.23829', '2504.16084');
    await seeded()
      .db.insert(queueItems)
      .values([
        { guildId: 'g1', paperId: second!, nominatedBy: 'u1', status: 'done', doneAt: new Date('2025-12-02') },
        { guildId: 'g1', paperId: gspo!, nominatedBy: 'u1', status: 'done', doneAt: new Date('2025-11-20') },
        { guildId: 'g1', paperId: waiting!, nominatedBy: 'u1', status: 'queued' },
        { guildId: 'g2', paperId: waiting!, nominatedBy: 'u2', status: 'done', doneAt: new Date('2025-11-01') },
      ]);
    const reply = await runCommand(queue, history('g1'), seeded().deps);
    expect(reply.content).toMatch(/2 papers, in the order they were read/);
    expect(reply.files![0]!.name).toBe('reading-group-history.bib');
    expect(entriesOf(reply).map((e) => e.fields.eprint)).toEqual(['2507.18071', '2503.23829']);
  });

  it('says so, privately, when nothing has been read', async () => {
    const reply = await runCommand(queue, history('g-empty'), seeded().deps);
    expect(reply).toMatchObject({ ephemeral: true, content: expect.stringMatching(/has read nothing yet/) });
    expect(reply.files).toBeUndefined();
  });
});
