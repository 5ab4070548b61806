import type { Log } from '../http/logging.ts';

/** A log that keeps the message of each warning in `warnings` (and drops the rest). */
export function warningsLog(warnings: string[]): Log {
  return {
    info: () => undefined,
    warn: (_details, message) => {
      warnings.push(message);
    },
  };
}
