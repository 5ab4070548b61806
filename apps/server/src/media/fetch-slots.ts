/**
 * The image fetcher's slots (docs/decisions/0023-platform-images.md): a few fetches at once per
 * server, none of which may keep its slot long. A fetch holds its slot at most `slotMs`; then it
 * gives the slot back and goes on "aside" (a few places of their own) as long as it keeps a
 * minimum rate, measured over each `rateWindowMs`. A fetch that finds the places aside taken, or
 * that falls below the rate, is abandoned: the fetcher aborts it and tries it again later, with
 * the usual back-off. So a host dripping bytes delays the next image by `slotMs` at most, however
 * slowly it drips, instead of holding the slot for the whole time limit.
 */

export interface SlotPolicy {
  /** Fetches at once in slots: the ones that may keep the next image waiting. */
  slots: number;
  /** How long a fetch may hold its slot. */
  slotMs: number;
  /** Fetches that outlived their slot and still go on, at most. */
  aside: number;
  /** What a fetch aside must receive, on average over each window, not to be abandoned. */
  minBytesPerSecond: number;
  rateWindowMs: number;
}

/** One fetch's hold on a slot: told of the bytes that arrive, and when the fetch is over. */
export interface SlotHold {
  /** `bytes` more arrived. */
  received: (bytes: number) => void;
  /** The fetch is over, whichever way: whatever it held is free. */
  end: () => void;
}

export interface FetchSlots {
  /** Slots free now. */
  free(): number;
  /**
   * Takes a slot (the caller saw one free). `abandon` is called at most once, with the reason,
   * when the fetch must stop to be tried again later.
   */
  take(abandon: (reason: string) => void): SlotHold;
}

/** `freed` is called whenever a slot is given back before its fetch is over. */
export function fetchSlots(policy: SlotPolicy, freed: () => void): FetchSlots {
  let inSlots = 0;
  let aside = 0;
  const windowBytes = (policy.minBytesPerSecond * policy.rateWindowMs) / 1000;

  return {
    free: () => policy.slots - inSlots,
    take(abandon) {
      inSlots += 1;
      let where: 'slot' | 'aside' | 'gone' = 'slot';
      let bytes = 0;
      let timer: NodeJS.Timeout | undefined;

      const leave = () => {
        if (where === 'slot') inSlots -= 1;
        if (where === 'aside') aside -= 1;
        where = 'gone';
        clearTimeout(timer);
      };

      const checkRate = () => {
        if (where !== 'aside') return;
        if (bytes < windowBytes) {
          leave();
          abandon(
            `too slow: ${bytes} bytes in ${policy.rateWindowMs / 1000} s ` +
              `(at least ${policy.minBytesPerSecond} a second)`,
          );
          return;
        }
        bytes = 0;
        timer = setTimeout(checkRate, policy.rateWindowMs).unref();
      };

      timer = setTimeout(() => {
        if (where !== 'slot') return;
        inSlots -= 1;
        if (aside >= policy.aside) {
          where = 'gone';
          abandon(`still going after ${policy.slotMs / 1000} s, with no room to go on aside`);
        } else {
          where = 'aside';
          aside += 1;
          bytes = 0;
          timer = setTimeout(checkRate, policy.rateWindowMs).unref();
        }
        freed();
      }, policy.slotMs).unref();

      return {
        received: (count) => {
          bytes += count;
        },
        end: leave,
      };
    },
  };
}
