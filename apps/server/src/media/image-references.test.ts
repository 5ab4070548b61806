import { describe, expect, it } from 'vitest';
import { foreignKeys } from '../test-support/live-schema.ts';
import { openTestDatabase } from '../test-support/test-database.ts';
import { IMAGE_COLUMNS } from './image-references.ts';

describe('the list of columns holding an image', () => {
  it('names every column with a foreign key to images, as the migrations built them', async () => {
    const { db, close } = await openTestDatabase({ seed: false });
    try {
      const columns = (await foreignKeys(db))
        .filter((key) => key.parent === 'images')
        .map((key) => `${key.table}.${key.column}`);
      expect([...IMAGE_COLUMNS].sort(), 'media/image-references.ts').toEqual(columns.sort());
    } finally {
      await close();
    }
  });
});
