// Writes the generated part of docs/platform.md (the signed example delivery and the events' JSON
// Schemas, from the contract's zod schemas): `node scripts/platform-doc.mjs`, after a change to
// packages/contract/src/platform-events.ts. tests/repo/platform-doc.test.ts fails until it is run.
import './load-typescript.mjs';

const { writePlatformDoc } = await import('../tests/repo/platform-doc.ts');
console.log(
  (await writePlatformDoc())
    ? 'docs/platform.md: brought up to date'
    : 'docs/platform.md: up to date',
);
