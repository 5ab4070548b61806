import type { DemoPlatformFaults } from '@guquan/contract/demo-platform';
import { DemoApiError, type DemoApi } from './demo-api';
import type { SimulatorStore } from './simulator-state';

/** How often the panel's "Platform" section reads the stand-in while it is shown. */
export const PLATFORM_REFRESH_MS = 2_000;

/**
 * The panel's window on the stand-in platform: reads what it holds (the points ledger, the events
 * the site delivered) into the simulator's state, and sets the faults a tester wants the next
 * debit or deliveries to meet, then reads again so the panel shows them at once.
 */
export interface PlatformWatch {
  /** One read; a read already under way is not doubled. */
  refresh: () => Promise<void>;
  /** True when the stand-in took the faults. */
  setFaults: (faults: DemoPlatformFaults) => Promise<boolean>;
}

function messageOf(error: unknown): string {
  return error instanceof DemoApiError ? error.message : 'The platform could not be read.';
}

export function createPlatformWatch(store: SimulatorStore, api: DemoApi): PlatformWatch {
  let reading: Promise<void> | undefined;

  const read = async () => {
    try {
      store.update({ platformView: await api.platform(), platformProblem: null });
    } catch (error) {
      store.update({ platformProblem: messageOf(error) });
    }
  };

  const refresh = () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };

  return {
    refresh,
    async setFaults(faults) {
      try {
        await api.setPlatformFaults(faults);
      } catch (error) {
        store.update({ platformProblem: messageOf(error) });
        return false;
      }
      // A read begun before the change would show the old faults: wait for it, then read anew.
      await reading;
      await refresh();
      return true;
    },
  };
}
