import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../../src/core/delivery/poster.ts';
import { sendPlanned, type OutboxRecord, type PlannedMessage } from '../../../../src/services/outbox/send.ts';

interface Msg extends PlannedMessage {
  id: string;
}

/** Records every outcome in order; `sent` gives each message the id it was sent as. */
function recorder(opts: { retries?: boolean } = { retries: true }) {
  const log: string[] = [];
  const record: OutboxRecord<Msg, string> = {
    sending: async (m) => void log.push(`sending ${m.id}`),
    sent: async (m, s) => void log.push(`sent ${m.id} as ${s}`),
    failed: async (m, reason, err) =>
      void log.push(`failed ${m.id}: ${reason}${err === undefined ? ' (not sent)' : ''}`),
    ...(opts.retries && { retry: async (m: Msg, reason: string) => void log.push(`retry ${m.id}: ${reason}`) }),
  };
  return { log, record };
}

const msgs = (...ids: string[]): Msg[] => ids.map((id) => ({ id, nonce: `n-${id}` }));
const transient = () => new DeliveryError('Discord 502: Bad Gateway', false);
const permanent = () => new DeliveryError('Discord 403 50007: Cannot send messages to this user', true);

/** Sends each message as its nonce, failing the ones scripted. */
const sender =
  (fail: Record<string, () => Error> = {}) =>
  async (m: Msg) => {
    const f = fail[m.id];
    if (f) throw f();
    return m.nonce;
  };

describe('sendPlanned', () => {
  it('looks for a message tried before and records it sent when it is out, sending only the ones not found', async () => {
    const { log, record } = recorder();
    const looked: string[] = [];
    record.findSent = async (m) => (looked.push(m.id), m.id === 'a' ? 'posted-a' : null);
    const planned: Msg[] = [
      { id: 'a', nonce: 'n-a', attempts: 1 },
      { id: 'b', nonce: 'n-b', attempts: 1 },
      { id: 'c', nonce: 'n-c' },
    ];
    const tally = await sendPlanned(planned, sender(), record, { afterFailed: 'stop', maxAttempts: 1 });
    // Never tried: not looked for. Found though out of attempts: sent, not failed.
    expect(looked).toEqual(['a', 'b']);
    expect(log).toEqual(['sent a as posted-a', 'failed b: not confirmed after 1 attempts (not sent)']);
    expect(tally).toEqual({ sent: 1, retrying: 0, failed: 1, busy: 0 });
  });

  it('treats a failed look like a failed send: transient retries later, permanent is final', async () => {
    const { log, record } = recorder();
    record.findSent = async (m) => {
      throw m.id === 'a' ? transient() : permanent();
    };
    await sendPlanned([{ id: 'a', nonce: 'n-a', attempts: 1 }], sender(), record, { afterFailed: 'next' });
    await sendPlanned([{ id: 'b', nonce: 'n-b', attempts: 1 }], sender(), record, { afterFailed: 'next' });
    expect(log).toEqual([
      'retry a: Discord 502: Bad Gateway',
      'failed b: Discord 403 50007: Cannot send messages to this user',
    ]);
  });

  it('sends every message in order with its nonce, recording sending before and sent after', async () => {
    const { log, record } = recorder();
    const tally = await sendPlanned(msgs('a', 'b'), sender(), record, { afterFailed: 'stop' });
    expect(log).toEqual(['sending a', 'sent a as n-a', 'sending b', 'sent b as n-b']);
    expect(tally).toEqual({ sent: 2, retrying: 0, failed: 0, busy: 0 });
  });

  it('stops at a transient failure, leaving the rest due for the next run', async () => {
    const { log, record } = recorder();
    const tally = await sendPlanned(msgs('a', 'b', 'c'), sender({ b: transient }), record, { afterFailed: 'next' });
    expect(log).toEqual(['sending a', 'sent a as n-a', 'sending b', 'retry b: Discord 502: Bad Gateway']);
    expect(tally).toEqual({ sent: 1, retrying: 1, failed: 0, busy: 0 });
  });

  it('records a permanent failure as final and stops or goes on as the policy says', async () => {
    const stop = recorder();
    await sendPlanned(msgs('a', 'b'), sender({ a: permanent }), stop.record, { afterFailed: 'stop' });
    expect(stop.log).toEqual(['sending a', 'failed a: Discord 403 50007: Cannot send messages to this user']);
    const next = recorder();
    const tally = await sendPlanned(msgs('a', 'b'), sender({ a: permanent }), next.record, { afterFailed: 'next' });
    expect(next.log.at(-1)).toBe('sent b as n-b');
    expect(tally).toEqual({ sent: 1, retrying: 0, failed: 1, busy: 0 });
  });

  it('gives up at the last attempt, and before sending once the attempts ran out (a run died mid-send)', async () => {
    const { log, record } = recorder();
    const planned: Msg[] = [
      { id: 'a', nonce: 'n-a', attempts: 3, lastError: 'Discord 502' },
      { id: 'b', nonce: 'n-b', attempts: 2 },
    ];
    await sendPlanned(planned, sender({ b: transient }), record, { afterFailed: 'next', maxAttempts: 3 });
    expect(log).toEqual([
      'failed a: Discord 502 (not sent)',
      'sending b',
      'failed b: Discord 502: Bad Gateway (gave up after 3 attempts)',
    ]);
  });

  it('treats every failure as final without a retry record (nothing stored to retry from), and a failed record of sent as a failed send', async () => {
    const { log, record } = recorder({ retries: false });
    const tally = await sendPlanned(msgs('a', 'b'), sender({ a: transient }), record, { afterFailed: 'next' });
    expect(log).toEqual(['sending a', 'failed a: Discord 502: Bad Gateway', 'sending b', 'sent b as n-b']);
    expect(tally.failed).toBe(1);
    const failing: OutboxRecord<Msg, string> = { ...record, sent: () => Promise.reject(new Error('database down')) };
    const t2 = await sendPlanned(msgs('c'), sender(), failing, { afterFailed: 'stop' });
    expect(log.at(-1)).toBe('failed c: database down');
    expect(t2).toEqual({ sent: 0, retrying: 0, failed: 1, busy: 0 });
  });

  it('sends nothing for a message another run holds: with stop the later ones wait, with next they go on; a claimed message is sent as the claim returned it', async () => {
    const { log, record } = recorder();
    record.findSent = async (m) => (log.push(`looked for ${m.id}`), null);
    // The claim returns the fresh row: `a` was tried by another run since this one listed it.
    record.claim = async (m) => (m.id === 'b' ? null : { ...m, attempts: m.id === 'a' ? 1 : 0 });
    const stop = await sendPlanned(msgs('a', 'b', 'c'), sender(), record, { afterFailed: 'stop' });
    expect(log).toEqual(['looked for a', 'sending a', 'sent a as n-a']);
    expect(stop).toEqual({ sent: 1, retrying: 0, failed: 0, busy: 1 });
    log.length = 0;
    const next = await sendPlanned(msgs('b', 'c'), sender(), record, { afterFailed: 'next' });
    expect(log).toEqual(['sending c', 'sent c as n-c']);
    expect(next).toEqual({ sent: 1, retrying: 0, failed: 0, busy: 1 });
  });
});
