import { performance } from 'node:perf_hooks';
import { Events, RESTEvents, type Client, type Interaction } from 'discord.js';
import type { InteractionLabels } from '../../services/ops/metrics.ts';

/** Discord shows "The application did not respond" when the first response takes longer. */
const DEADLINE_MS = 3000;

export interface LatencySink {
  observe(labels: InteractionLabels, seconds: number): void;
  unanswered(labels: InteractionLabels): void;
}

function labelsOf(i: Interaction): InteractionLabels {
  if (i.isChatInputCommand()) return { type: 'command', command: i.commandName };
  if (i.isAutocomplete()) return { type: 'autocomplete', command: i.commandName };
  if (i.isMessageComponent()) return { type: 'component', command: i.customId.split(':', 1)[0] ?? '' };
  return { type: 'other', command: '' };
}

/**
 * Times every interaction from its arrival to its first response, whatever the router does with it:
 * every first response (reply, defer, update, autocomplete choices) is the interaction's callback
 * request, so the clock stops when the REST client has Discord's answer to that request. One with no
 * callback within 3 s is counted as unanswered, unless `declined` says another process claimed it
 * (then this process never answers it, by design). Returns a function that stops watching.
 */
export function watchInteractionLatency(
  client: Client,
  sink: LatencySink,
  declined?: (listener: (interactionId: string) => void) => () => void,
): () => void {
  const waiting = new Map<string, { t0: number; labels: InteractionLabels; timer: NodeJS.Timeout }>();

  const onInteraction = (i: Interaction) => {
    const labels = labelsOf(i);
    const timer = setTimeout(() => {
      waiting.delete(i.id);
      sink.unanswered(labels);
    }, DEADLINE_MS);
    timer.unref();
    waiting.set(i.id, { t0: performance.now(), labels, timer });
  };
  const onResponse = (request: { path: string }) => {
    const m = /^\/interactions\/(\d+)\/[^/]+\/callback/.exec(request.path);
    const entry = m && waiting.get(m[1]!);
    if (!entry) return;
    clearTimeout(entry.timer);
    waiting.delete(m[1]!);
    sink.observe(entry.labels, (performance.now() - entry.t0) / 1000);
  };

  const onDeclined = (id: string) => {
    clearTimeout(waiting.get(id)?.timer);
    waiting.delete(id);
  };

  // Registered before the router's listener (startBot calls this first), so the clock starts on arrival.
  client.on(Events.InteractionCreate, onInteraction);
  client.rest.on(RESTEvents.Response, onResponse);
  const stopDeclined = declined?.(onDeclined);
  return () => {
    stopDeclined?.();
    client.off(Events.InteractionCreate, onInteraction);
    client.rest.off(RESTEvents.Response, onResponse);
    for (const e of waiting.values()) clearTimeout(e.timer);
    waiting.clear();
  };
}
