import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PICTURE_DESIGN } from '@guquan/contract/share-pictures';

/**
 * Browsers keep a picture a year under its address, and the address changes only with what the
 * picture shows or with PICTURE_DESIGN. So a change to how pictures are drawn must bump
 * PICTURE_DESIGN, or every browser keeps the old drawing: this test notices the code changing.
 */
const DRAWING_SOURCES = ['picture-layouts.ts', 'picture-drawing.ts', 'picture-fonts.ts'];

/**
 * The design version and the hash of the drawing code it was set for. Last recorded for the QR
 * code's viewBox (equal to its width and height: a poster's pixels are the same, so the design
 * stays 2).
 */
const RECORDED = { design: 2, sources: '2deu_dtsgLEvMXPY' };

describe('the pictures’ design version', () => {
  it('moves with the drawing code', async () => {
    const hash = createHash('sha256');
    for (const file of DRAWING_SOURCES) hash.update(await readFile(new URL(file, import.meta.url)));
    const sources = hash.digest('base64url').slice(0, 16);
    expect(
      { design: PICTURE_DESIGN, sources },
      'The drawing changed: bump PICTURE_DESIGN (contract/share-pictures.ts) and record both here',
    ).toEqual(RECORDED);
  });
});
