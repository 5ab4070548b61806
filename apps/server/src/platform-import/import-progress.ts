/** How far a run over an events file has come. */
export interface RunProgress {
  /** Events done (applied, ignored or delivered). */
  events: number;
  bytesRead: number;
  totalBytes: number;
  /** Milliseconds since the run started. */
  elapsedMs: number;
}

const count = new Intl.NumberFormat('en-US');

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * One line of progress: events done, events per second, and what is left, estimated from the
 * bytes read (the file is read once, so its size is the one measure of the whole), e.g.
 * `120,000 events, 9,800 events/s, 34% of the file, about 25 s left`.
 */
export function progressLine({ events, bytesRead, totalBytes, elapsedMs }: RunProgress): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? events / seconds : 0;
  const share = totalBytes > 0 ? Math.min(1, bytesRead / totalBytes) : 1;
  const parts = [
    `${count.format(events)} events`,
    `${count.format(Math.round(rate))} events/s`,
    `${Math.floor(share * 100)}% of the file`,
  ];
  if (share > 0 && share < 1) parts.push(`about ${duration((seconds * (1 - share)) / share)} left`);
  return parts.join(', ');
}

/** Where progress goes: a line rewritten in place on a terminal, else a line now and then. */
export interface ProgressWriter {
  /** Shows `line` now (a terminal) or when the last was at least `everyMs` ago. */
  update: (line: string) => void;
  /** Ends the line in place, if any, so what follows starts on a line of its own. */
  done: () => void;
}

export function progressWriter(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  { everyMs = 2000, now = Date.now }: { everyMs?: number; now?: () => number } = {},
): ProgressWriter {
  const tty = stream.isTTY === true;
  let shownAt = -Infinity;
  let inPlace = false;
  return {
    update(line) {
      if (tty) {
        stream.write(`\r\u001b[2K${line}`);
        inPlace = true;
        return;
      }
      if (now() - shownAt < everyMs) return;
      shownAt = now();
      stream.write(`${line}\n`);
    },
    done() {
      if (inPlace) stream.write('\n');
      inPlace = false;
    },
  };
}
