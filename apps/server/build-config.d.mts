import type { BuildOptions } from 'esbuild';

/** The esbuild options of the server's bundles (build-config.mjs). */
export function serverBuildOptions(options?: {
  outdir?: string;
  production?: boolean;
  absWorkingDir?: string;
}): BuildOptions;
