// Lets a plain Node script import the TypeScript helpers in tests/support/ (the cluster, the
// throwaway PostgreSQL and Redis, the built server): import this module first, then the helpers
// with a dynamic import(), as scripts/cluster.mjs and benchmarks/bench-support.mjs do. Node 20
// cannot load .ts by itself; typescript-hooks.mjs strips the types with esbuild, already a
// devDependency for the server's build. Why not a built copy or a hand-kept .d.mts: see
// docs/decisions/0016-scripts-tests-and-benchmarks.md (and docs/architecture.md, "Tests").
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
