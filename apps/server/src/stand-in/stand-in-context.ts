import type { FastifyPluginCallback } from 'fastify';
import type { StandInKeys } from './stand-in-keys.ts';
import type { LoadedPointsLedger } from './points-ledger.ts';
import type { StandInSecrets } from './stand-in-secrets.ts';

/** What every route plugin of the stand-in is handed. */
export interface StandInContext {
  dataDir: string;
  /** The demo pictures' size relative to their natural size (the tests draw small ones). */
  imageScale: number;
  issuer: string;
  keys: StandInKeys;
  secrets: StandInSecrets;
  /** The stand-in's own origin (`http://127.0.0.1:<port>`), known once it listens. */
  origin: () => string;
  /** The points ledger (points-ledger.ts), loaded from `<dataDir>/stand-in/ledger.json`. */
  ledger: LoadedPointsLedger;
}

/** A part of the stand-in platform: its routes (stand-in-platform.ts lists them). */
export type StandInRoutes = FastifyPluginCallback<StandInContext>;
