import { bridgeStandIn } from './bridge-stand-in';
import { getBridge, type Bridge } from './native-bridge';

/**
 * The bridge, ready to use: inside the app as it is; in an ordinary browser, the stand-in the app
 * provided (the bridge simulator on a demo server, in a chunk of its own) first takes the app's
 * place.
 */
export async function connectBridge(): Promise<Bridge> {
  const bridge = getBridge();
  const standIn = bridgeStandIn();
  if (bridge.transport() === 'none' && standIn) await standIn();
  return bridge;
}
