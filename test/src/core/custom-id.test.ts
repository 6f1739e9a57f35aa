import { describe, expect, it } from 'vitest';
import { CUSTOM_IDS, customIdCodec } from '../../../src/core/custom-id.ts';
import { commands, findComponentOwner } from '../../../commands/index.ts';

describe('custom id codecs', () => {
  const samples: { [K in keyof typeof CUSTOM_IDS]: Parameters<(typeof CUSTOM_IDS)[K]['encode']>[0] } = {
    paperPage: { user: '123456789012345678', key: 'aB3-_x9QzZ0k', page: 7 },
    paperRandom: { user: 'u1', topic: 'reward-modeling' },
    askSources: { key: 'Zx_9-aaaBBBc' },
    askMore: { key: 'Zx_9-aaaBBBc' },
    familyPage: { slug: 'dr-grpo', page: 2 },
    queuePage: { page: 3 },
    queueHistory: { page: 1 },
    vote: { paper: 4242 },
    paperRecipe: { paper: 17 },
    paperEvidence: { paper: 17 },
  };

  it("decodes every id it encodes to the same values, within Discord's 100 characters", () => {
    for (const [name, codec] of Object.entries(CUSTOM_IDS)) {
      const values = samples[name as keyof typeof samples];
      const id = (codec.encode as (v: unknown) => string)(values);
      expect(id.length).toBeLessThanOrEqual(100);
      expect(codec.decode(id)).toEqual(values);
    }
  });

  it('routes every id to the command that answers it', () => {
    for (const codec of Object.values(CUSTOM_IDS)) {
      const owner = findComponentOwner(`${codec.prefix}:x`);
      expect(owner, codec.prefix).toBeDefined();
      expect(commands).toContain(owner);
    }
  });

  it('keeps the digest vote button in the form posted digests already carry', () => {
    expect(CUSTOM_IDS.vote.encode({ paper: 12 })).toBe('vote:12');
  });

  it('refuses ids of another shape: other codecs, missing or extra fields, non-numbers, injected separators', () => {
    const page = CUSTOM_IDS.queuePage;
    expect(page.decode('queue:history:2')).toBeNull();
    expect(page.decode('queue:page')).toBeNull();
    expect(page.decode('queue:page:2:3')).toBeNull();
    expect(page.decode('queue:page:two')).toBeNull();
    expect(page.decode('queue:page:-1')).toBeNull();
    expect(page.decode('queue:page:1e3')).toBeNull();
    // Above a Postgres integer: a bad id, never a failed query.
    expect(page.decode('queue:page:2147483647')).toEqual({ page: 2147483647 });
    expect(page.decode('queue:page:2147483648')).toBeNull();
    expect(page.decode('queue:page:999999999999999')).toBeNull();
    expect(() => page.encode({ page: 2 ** 31 })).toThrow(RangeError);
    expect(CUSTOM_IDS.paperPage.decode('paper:page:u1:k:ey:2')).toBeNull();
  });

  it('refuses to encode a value that would break the id or pass 100 characters', () => {
    expect(() => CUSTOM_IDS.paperRandom.encode({ user: 'u1', topic: 'a:b' })).toThrow(RangeError);
    expect(() => CUSTOM_IDS.queuePage.encode({ page: 1.5 })).toThrow(RangeError);
    const long = customIdCodec('x', 'y', { a: 'id', b: 'id' });
    expect(() => long.encode({ a: 'a'.repeat(60), b: 'b'.repeat(60) })).toThrow(/100 characters/);
  });
});
