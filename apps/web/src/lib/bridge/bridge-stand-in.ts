/**
 * What plays the app where there is none: on a demo server, the bridge simulator. app/ decides
 * whether there is one (app/bridge-simulator.ts, from the server's demo marker) and provides it at
 * start-up; lib/ never knows what it is, and production never provides one. A module of its own,
 * without imports, so the entry can provide it without loading the bridge.
 */
export type BridgeStandIn = () => Promise<void>;

let provided: BridgeStandIn | undefined;

export function provideBridgeStandIn(standIn: BridgeStandIn | undefined): void {
  provided = standIn;
}

export function bridgeStandIn(): BridgeStandIn | undefined {
  return provided;
}
