import { EventEmitter } from 'node:events';
import { Events, RESTEvents, type Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchInteractionLatency } from '../../../../src/adapters/discord/latency.ts';

/** A client's two event sources, as the watcher uses them: interactions arriving, REST responses. */
function stubClient() {
  const client = Object.assign(new EventEmitter(), { rest: new EventEmitter() });
  const arrive = (id: string) =>
    client.emit(Events.InteractionCreate, { id, isChatInputCommand: () => true, commandName: 'queue' });
  const answer = (id: string) => client.rest.emit(RESTEvents.Response, { path: `/interactions/${id}/tok/callback` });
  return { client: client as unknown as Client, arrive, answer };
}

describe('watchInteractionLatency', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts an interaction unanswered after 3 s, unless it was answered or another process claimed it', () => {
    const { client, arrive, answer } = stubClient();
    const sink = { observe: vi.fn(), unanswered: vi.fn() };
    let declined!: (id: string) => void;
    const stop = watchInteractionLatency(client, sink, (listener) => {
      declined = listener;
      return () => {};
    });
    arrive('1');
    arrive('2');
    arrive('3');
    answer('1');
    declined('2');
    vi.advanceTimersByTime(3_000);
    expect(sink.observe).toHaveBeenCalledTimes(1);
    expect(sink.unanswered).toHaveBeenCalledTimes(1); // '3' alone: '2' is another process's to answer
    stop();
  });
});
