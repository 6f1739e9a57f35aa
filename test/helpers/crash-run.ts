/**
 * Runs the digest delivery of one channel in its own process and kills it (SIGKILL, no cleanup) right after the
 * fake accepted the message with nonce CRASH_NONCE and before the outbox recorded it: the worst
 * moment for exactly-once delivery. Used by test/jobs/post-digests.test.ts.
 */
import pino from 'pino';
import { createDb } from '../../db/client.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';
import { httpPoster } from './http-poster.ts';

const { DATABASE_URL, FAKE_BASE, CRASH_CHANNEL, CRASH_NONCE, NOW } = process.env;
const handle = createDb(DATABASE_URL!);
const poster = httpPoster(FAKE_BASE!, ({ nonce }) => {
  if (nonce === CRASH_NONCE) process.kill(process.pid, 'SIGKILL');
});
await deliverDigests(
  { db: handle.db, log: pino({ level: 'silent' }), now: () => new Date(NOW!) },
  { poster, channelId: CRASH_CHANNEL!, compose: () => Promise.reject(new Error('the digest was planned by the test')) },
);
await handle.close();
