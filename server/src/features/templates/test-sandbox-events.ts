/** What the sandbox tells its diagnostics channel, collected for a test file: every event, and the next of a kind. */
import diagnostics from 'node:diagnostics_channel';
import { afterAll } from 'vitest';
import { SANDBOX_CHANNEL } from './sandbox';

export interface SandboxEvent {
  event: string;
  sandbox: number;
  pid?: number;
  reason?: string;
  signal?: string | null;
}

export function watchSandbox() {
  const events: SandboxEvent[] = [];
  const record = (message: unknown) => events.push(message as SandboxEvent);
  diagnostics.subscribe(SANDBOX_CHANNEL.name, record);
  afterAll(() => diagnostics.unsubscribe(SANDBOX_CHANNEL.name, record));
  const nextEvent = (name: string) =>
    new Promise<SandboxEvent>((resolve) => {
      const seen = (message: unknown) => {
        if ((message as SandboxEvent).event !== name) return;
        diagnostics.unsubscribe(SANDBOX_CHANNEL.name, seen);
        resolve(message as SandboxEvent);
      };
      diagnostics.subscribe(SANDBOX_CHANNEL.name, seen);
    });
  return { events, nextEvent };
}
