import { afterEach, describe, expect, it } from 'vitest';
import { foreignKeys } from '../test-support/live-schema.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { IMAGE_COLUMNS } from './image-references.ts';

let current: TestDatabase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('the list of columns holding an image', () => {
  it('names every column with a foreign key to images, as the migrations built them', async () => {
    current = await openTestDatabase({ seed: false });
    const columns = (await foreignKeys(current.db))
      .filter((key) => key.parent === 'images')
      .map((key) => `${key.table}.${key.column}`);
    expect([...IMAGE_COLUMNS].sort(), 'media/image-references.ts').toEqual(columns.sort());
  });
});
