import { afterAll } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropic, type FakeAnthropicOptions } from './fake-anthropic-server.ts';

export * from './fake-anthropic-server.ts';

/** The fake Anthropic API (./fake-anthropic-server.ts) for one test file: started now, closed when the file's tests end. */
export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const fake = await startFakeAnthropicServer(opts);
  afterAll(() => fake.close());
  return fake;
}
