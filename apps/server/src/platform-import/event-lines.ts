import { createReadStream } from 'node:fs';

/** One line of an events file: its number (from 1), its text, and the bytes read up to its end. */
export interface FileLine {
  number: number;
  text: string;
  bytesRead: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function textOf(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? -1 : undefined;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * The lines of a file, read as they are asked for: a chunk at a time, so memory stays flat
 * however large the file (the stream is only read further when the next line is wanted). Lines
 * end with \n (a \r before it is dropped); blank lines are skipped but counted.
 */
export async function* fileLines(file: string): AsyncGenerator<FileLine> {
  let number = 0;
  let bytesRead = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let bytes = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let newline = bytes.indexOf(NEWLINE);
    while (newline !== -1) {
      number += 1;
      bytesRead += newline + 1;
      const text = textOf(bytes.subarray(0, newline));
      if (text.trim() !== '') yield { number, text, bytesRead };
      bytes = bytes.subarray(newline + 1);
      newline = bytes.indexOf(NEWLINE);
    }
    rest = Buffer.from(bytes);
  }
  if (rest.length > 0) {
    number += 1;
    bytesRead += rest.length;
    const text = textOf(rest);
    if (text.trim() !== '') yield { number, text, bytesRead };
  }
}
