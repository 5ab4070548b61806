import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { PLATFORM_DELIVERY_MAX_BYTES } from '@guquan/contract/platform-events';

/** One line of an events file: its number (from 1), its text, and the bytes read up to its end. */
export interface FileLine {
  number: number;
  text: string;
  bytesRead: number;
}

/** A line that cannot be an event: too long, or not UTF-8. Reading ends with it. */
export interface UnreadableLine {
  number: number;
  /** What is wrong with it, e.g. `is not valid UTF-8`. */
  unreadable: string;
}

/** What `{"events":[` and `]}` add to a delivery's lines, rounded up. */
export const DELIVERY_ENVELOPE_BYTES = 64;

/**
 * The longest line, in bytes (its \n and a \r before it aside): the most one event may be, in a
 * delivery of 5 MB with its envelope. A line is never held past it, so a file with a line of any
 * length is read in flat memory and stops there.
 */
export const EVENT_LINE_MAX_BYTES = PLATFORM_DELIVERY_MAX_BYTES - DELIVERY_ENVELOPE_BYTES;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const count = new Intl.NumberFormat('en-US');

function tooLong(number: number, maxLineBytes: number): UnreadableLine {
  return {
    number,
    unreadable: `is longer than ${count.format(maxLineBytes)} bytes, the most a line may hold`,
  };
}

/** A whole line's bytes (without its \n) as a line, or why it cannot be one; null: blank. */
function lineOf(
  number: number,
  bytes: Buffer,
  bytesRead: number,
  maxLineBytes: number,
): FileLine | UnreadableLine | null {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? -1 : undefined;
  const content = bytes.subarray(0, end);
  if (content.length > maxLineBytes) return tooLong(number, maxLineBytes);
  // toString would put U+FFFD in place of a bad byte, and the event would be stored so.
  if (!isUtf8(content)) return { number, unreadable: 'is not valid UTF-8' };
  const text = content.toString('utf8');
  return text.trim() === '' ? null : { number, text, bytesRead };
}

/**
 * The lines of a file, read as they are asked for: a chunk at a time, so memory stays flat
 * however large the file (the stream is only read further when the next line is wanted). Lines
 * end with \n (a \r before it is dropped); blank lines are skipped but counted. A line longer
 * than `maxLineBytes` or not valid UTF-8 comes as an `UnreadableLine`, the last one read: a long
 * one as soon as it passes the limit, never held whole.
 */
export async function* fileLines(
  file: string,
  { maxLineBytes = EVENT_LINE_MAX_BYTES }: { maxLineBytes?: number } = {},
): AsyncGenerator<FileLine | UnreadableLine> {
  let number = 0;
  let bytesRead = 0;
  // The line under way: pieces of chunks, joined once when its \n comes.
  let pieces: Buffer[] = [];
  let pending = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      // One byte more than the limit may be the \r before the \n.
      if (pending + piece.length > maxLineBytes + 1) {
        yield tooLong(number + 1, maxLineBytes);
        return;
      }
      if (newline === -1) {
        if (piece.length > 0) pieces.push(piece);
        pending += piece.length;
        break;
      }
      number += 1;
      const bytes = pieces.length === 0 ? piece : Buffer.concat([...pieces, piece]);
      bytesRead += bytes.length + 1;
      pieces = [];
      pending = 0;
      const line = lineOf(number, bytes, bytesRead, maxLineBytes);
      if (line) {
        yield line;
        if ('unreadable' in line) return;
      }
      start = newline + 1;
    }
  }
  if (pending > 0) {
    number += 1;
    bytesRead += pending;
    const line = lineOf(number, Buffer.concat(pieces), bytesRead, maxLineBytes);
    if (line) yield line;
  }
}
