import { describe, expect, it } from 'vitest';
import { renderInteraction, renderMessage, withoutFlags } from '../../../../src/adapters/discord/render.ts';
import { LIMITS, type Reply } from '../../../../src/core/reply.ts';

describe('renderMessage', () => {
  it('never lets Discord parse mentions out of the text', () => {
    const payload = renderMessage({ content: '@everyone <@&123456789012345678> <@123456789012345678> read this' });
    expect(payload.allowedMentions).toEqual({ parse: [] });
  });

  it('allows only the roles a channel opted into, once each', () => {
    expect(
      renderMessage(
        { content: '<@&400000000000000099> new papers' },
        { pingRoleIds: ['400000000000000099', '400000000000000099', 'not-a-role'] },
      ).allowedMentions,
    ).toEqual({ parse: [], roles: ['400000000000000099'] });
  });

  it('renders embeds as API JSON and cuts them to Discord limits', () => {
    const long = 'x'.repeat(5000);
    const reply: Reply = {
      embeds: [
        {
          title: long,
          url: 'https://arxiv.org/abs/2507.18071',
          description: long,
          footer: long,
          color: 0x5865f2,
          fields: [
            { name: long, value: long, inline: true },
            { name: ' ', value: 'dropped: empty name' },
          ],
        },
      ],
    };
    const [e] = renderMessage(reply).embeds;
    expect(e!.title).toHaveLength(LIMITS.title);
    expect(e!.url).toBe('https://arxiv.org/abs/2507.18071');
    expect(e!.color).toBe(0x5865f2);
    expect(e!.fields).toHaveLength(1);
    expect(e!.fields![0]!.value).toHaveLength(LIMITS.fieldValue);
    expect(e!.fields![0]!.inline).toBe(true);
    const size =
      (e!.title?.length ?? 0) +
      (e!.description?.length ?? 0) +
      (e!.footer?.text.length ?? 0) +
      e!.fields!.reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(size).toBeLessThanOrEqual(LIMITS.embedTotal);
  });

  it('keeps at most 10 embeds and 6,000 embed characters per message', () => {
    const embeds = Array.from({ length: 12 }, (_, i) => ({ title: `Paper ${i}`, description: 'y'.repeat(1500) }));
    const out = renderMessage({ embeds }).embeds;
    expect(out.length).toBeLessThanOrEqual(LIMITS.embedsPerMessage);
    expect(out.reduce((n, e) => n + (e.title?.length ?? 0) + (e.description?.length ?? 0), 0)).toBeLessThanOrEqual(
      LIMITS.embedTotal,
    );
    expect(out[0]!.description).toHaveLength(1500);
  });

  it('renders action and link buttons as action rows, within 5 rows of 5', () => {
    const row = Array.from({ length: 7 }, (_, i) => ({
      kind: 'action' as const,
      customId: `paper:page:${i}`,
      label: `Page ${i}`,
    }));
    const payload = renderMessage({
      content: 'pages',
      components: [
        [
          { kind: 'action', customId: 'vote:42', label: 'Vote for reading group', style: 'success' },
          { kind: 'link', url: 'https://arxiv.org/pdf/2507.18071', label: 'PDF' },
        ],
        ...Array(6).fill(row),
      ],
    });
    expect(payload.components).toHaveLength(LIMITS.rows);
    expect(payload.components[0]).toEqual({
      type: 1,
      components: [
        { type: 2, style: 3, custom_id: 'vote:42', label: 'Vote for reading group', disabled: false },
        { type: 2, style: 5, url: 'https://arxiv.org/pdf/2507.18071', label: 'PDF' },
      ],
    });
    expect(payload.components[1]!.components).toHaveLength(LIMITS.buttonsPerRow);
    expect(payload.components[1]!.components[0]).toMatchObject({ style: 2 }); // secondary by default
  });

  it('always sends content, so an edit or update replaces the old text', () => {
    expect(renderMessage({ embeds: [{ title: 'only an embed' }] }).content).toBe('');
    expect(renderMessage({}).content.length).toBeGreaterThan(0);
    expect(renderMessage({ content: 'z'.repeat(3000) }).content).toHaveLength(LIMITS.content);
  });
});

describe('renderMessage with pictures', () => {
  const png = (name: string) => ({
    name,
    data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    description: `${name}: ${'d'.repeat(2000)}`,
    width: 1000,
    height: 900,
  });

  it("uploads the reply's files with their alt text and shows the one an embed names", () => {
    const payload = renderMessage({
      embeds: [
        { title: 'Tree', image: 'family-tree.png' },
        { title: 'No such file', image: 'gone.png' },
      ],
      files: [png('family-tree.png')],
    });
    expect(payload.embeds[0]!.image).toEqual({ url: 'attachment://family-tree.png' });
    expect(payload.embeds[1]!.image).toBeUndefined();
    expect(payload.files).toHaveLength(1);
    expect(payload.files![0]!.name).toBe('family-tree.png');
    expect(payload.files![0]!.attachment.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
    expect(payload.files![0]!.description).toHaveLength(LIMITS.fileDescription);
    expect(renderMessage({ content: 'no pictures' }).files).toBeUndefined();
  });
});

describe('renderInteraction', () => {
  it('turns ephemeral into the Ephemeral flag, and edits drop it', () => {
    const payload = renderInteraction({ content: 'only you', ephemeral: true });
    expect(payload.flags).toBe(64);
    expect(payload.allowedMentions).toEqual({ parse: [] });
    expect('flags' in withoutFlags(payload)).toBe(false);
    expect(renderInteraction({ content: 'everyone' }).flags).toBeUndefined();
  });
});
