import { z } from 'zod';
import { bridgePlatformSchema } from '@guquan/contract/bridge';
import type { DemoPlatform } from '@guquan/contract/demo-platform';
import { sessionSchema, type DemoUser, type Session } from '@guquan/contract/session';

/**
 * What the simulator's panel shows and its methods read: the tester's settings and the demo
 * session, both kept in sessionStorage so a reload of the tab keeps them (as the app keeps its
 * log-in), plus what is only on screen (notices, the demo users, a pending log-in request).
 */
export const PURCHASE_OUTCOMES = ['approve', 'cancel', 'fail', 'pending'] as const;
export type PurchaseOutcome = (typeof PURCHASE_OUTCOMES)[number];
export const MAX_DELAY_MS = 60_000;

const settingsSchema = z.object({
  purchaseOutcome: z.enum(PURCHASE_OUTCOMES),
  delayMs: z.number().int().min(0).max(MAX_DELAY_MS),
  dropReplies: z.boolean(),
  platform: bridgePlatformSchema,
  /** Answer the page's login call with the first demo user instead of waiting for a pick. */
  autoLogin: z.boolean(),
  /** The panel's "Platform" section is expanded (it is watched only then, and while open). */
  showPlatform: z.boolean().default(false),
});
export type SimulatorSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: SimulatorSettings = {
  purchaseOutcome: 'approve',
  delayMs: 0,
  dropReplies: false,
  platform: 'ios',
  autoLogin: false,
  showPlatform: false,
};

export const SETTINGS_KEY = 'guquan.bridgeSimulator.settings';
export const SESSION_KEY = 'guquan.bridgeSimulator.session';

export interface Notice {
  id: number;
  text: string;
  /** Dismissing it means coming back to the page: the app then sends the `resumed` event. */
  resumesPage: boolean;
}

export interface SimulatorState {
  settings: SimulatorSettings;
  session: Session | null;
  users: readonly DemoUser[];
  usersStatus: 'idle' | 'loading' | 'ready' | 'error';
  /** The last thing that went wrong in the panel (a failed log-in, say). */
  problem: string | null;
  open: boolean;
  notices: readonly Notice[];
  /** The page called login and waits for the tester to pick a user. */
  loginRequested: boolean;
  unfinishedCount: number;
  /** The stand-in platform as last read (platform-watch.ts); null until read. */
  platformView: DemoPlatform | null;
  /** Why the last read of the platform, or the last fault set, failed. */
  platformProblem: string | null;
}

export interface SimulatorStore {
  get: () => SimulatorState;
  subscribe: (listener: () => void) => () => void;
  update: (change: Partial<SimulatorState>) => void;
  changeSettings: (change: Partial<SimulatorSettings>) => void;
  /** Shows a notice; its id. */
  notify: (text: string, options?: { resumesPage?: boolean }) => number;
  dismissNotice: (id: number) => void;
}

function readStored<T>(storage: Storage, key: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(storage.getItem(key) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createSimulatorStore(storage: Storage): SimulatorStore {
  const listeners = new Set<() => void>();
  let noticeId = 0;
  let state: SimulatorState = {
    settings: readStored(storage, SETTINGS_KEY, settingsSchema) ?? DEFAULT_SETTINGS,
    session: readStored(storage, SESSION_KEY, sessionSchema) ?? null,
    users: [],
    usersStatus: 'idle',
    problem: null,
    open: false,
    notices: [],
    loginRequested: false,
    unfinishedCount: 0,
    platformView: null,
    platformProblem: null,
  };

  const update = (change: Partial<SimulatorState>) => {
    const next = { ...state, ...change };
    if (next.settings !== state.settings) {
      storage.setItem(SETTINGS_KEY, JSON.stringify(next.settings));
    }
    if (next.session !== state.session) {
      if (next.session) storage.setItem(SESSION_KEY, JSON.stringify(next.session));
      else storage.removeItem(SESSION_KEY);
    }
    // A new object each time: useSyncExternalStore compares snapshots by identity.
    state = next;
    for (const listener of [...listeners]) listener();
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    update,
    changeSettings(change) {
      const parsed = settingsSchema.safeParse({ ...state.settings, ...change });
      if (parsed.success) update({ settings: parsed.data });
    },
    notify(text, options = {}) {
      noticeId += 1;
      update({
        notices: [
          ...state.notices,
          { id: noticeId, text, resumesPage: options.resumesPage ?? false },
        ],
      });
      return noticeId;
    },
    dismissNotice(id) {
      update({ notices: state.notices.filter((notice) => notice.id !== id) });
    },
  };
}
