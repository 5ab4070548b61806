import { describe, expect, it } from 'vitest';
import { progressLine, progressWriter } from './import-progress.ts';

describe('the import’s progress', () => {
  it('says events done, events per second, how much is read and what is left', () => {
    expect(
      progressLine({ events: 120_000, bytesRead: 250, totalBytes: 1000, elapsedMs: 12_000 }),
    ).toBe('120,000 events, 10,000 events/s, 25% of the file, about 36 s left');
    expect(
      progressLine({ events: 1_000_000, bytesRead: 10, totalBytes: 100, elapsedMs: 60_000 }),
    ).toBe('1,000,000 events, 16,667 events/s, 10% of the file, about 9 min 0 s left');
    expect(progressLine({ events: 3, bytesRead: 90, totalBytes: 90, elapsedMs: 0 })).toBe(
      '3 events, 0 events/s, 100% of the file',
    );
  });

  it('rewrites one line on a terminal, and writes a line now and then elsewhere', () => {
    const written: string[] = [];
    const terminal = { isTTY: true, write: (text: string) => written.push(text) };
    const onTerminal = progressWriter(terminal as unknown as NodeJS.WritableStream);
    onTerminal.update('a');
    onTerminal.update('b');
    onTerminal.done();
    expect(written).toEqual(['\r\u001b[2Ka', '\r\u001b[2Kb', '\n']);

    written.length = 0;
    let now = 0;
    const log = { write: (text: string) => written.push(text) };
    const inLog = progressWriter(log as unknown as NodeJS.WritableStream, {
      everyMs: 1000,
      now: () => now,
    });
    inLog.update('a');
    now = 500;
    inLog.update('b');
    now = 1000;
    inLog.update('c');
    inLog.done();
    expect(written).toEqual(['a\n', 'c\n']);
  });
});
