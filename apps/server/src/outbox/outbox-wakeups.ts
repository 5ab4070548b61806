import type { OutboxChannel } from '../db/schema.ts';

/**
 * Who wants to hear that a row was queued (the outbox plugin of each server in this process): a
 * queued event is delivered within moments, not at the next periodic run.
 */
const listeners = new Set<(channel: OutboxChannel) => void>();

export function onOutboxQueued(listener: (channel: OutboxChannel) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function outboxQueued(channel: OutboxChannel): void {
  for (const listener of listeners) listener(channel);
}
