import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoPlatform } from '@guquan/contract/demo-platform';
import { createDemoApi, DEMO_PATHS } from './demo-api';
import { PlatformSection, shortKey, timeOf } from './platform-section';
import { createPlatformWatch, PLATFORM_REFRESH_MS } from './platform-watch';
import { createSimulatorStore, type SimulatorStore } from './simulator-state';

/**
 * The panel's "Platform" section against a fake demo server: what it shows of the stand-in,
 * when it reads it (every 2 s while the panel is open and the section expanded, never else),
 * and the faults it sets.
 */
const KEY = '0f8e1c52-9d7a-4a57-9d33-7a4b4d2f0c11';
const USER = { id: 'Uq3x9TmKd2Lp7Wz1', nickname: '谷子收藏家' };
const PLATFORM: DemoPlatform = {
  ledger: {
    balances: [
      { userId: USER.id, balance: 1300 },
      { userId: 'Vb7n2QwEr5Ty8Ui0', balance: 40 },
    ],
    debits: [
      {
        key: KEY,
        userId: USER.id,
        points: 200,
        designId: 'Dz4k8Lq2Wm6Np0Rs',
        outcome: 'charged',
        balance: 1300,
        at: '2026-11-26T23:00:05.000Z',
      },
      {
        key: '7c2d9e10-1111-4a57-9d33-7a4b4d2f0c11',
        userId: 'Vb7n2QwEr5Ty8Ui0',
        points: 150,
        designId: 'Dz4k8Lq2Wm6Np0Rs',
        outcome: 'insufficient_points',
        balance: 40,
        at: '2026-11-26T22:59:00.000Z',
      },
    ],
    nextDebitFault: 'none',
    heldFrom: [],
  },
  received: {
    deliveries: [
      {
        webhookId: 'msg_2Zb8Xq',
        receivedAt: '2026-11-26T23:01:00.000Z',
        events: [
          { type: 'account.deletion_requested', userId: USER.id },
          { type: 'membership.changed', userId: USER.id },
        ],
        attempt: 3,
      },
    ],
    failNext: 0,
  },
};

interface FakeServer {
  fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  answer: { status: number; body: unknown };
  posts: unknown[];
  reads: () => number;
}

function fakeServer(): FakeServer {
  const server: FakeServer = {
    answer: { status: 200, body: PLATFORM },
    posts: [],
    reads: () =>
      server.fetch.mock.calls.filter(([url, init]) => url === DEMO_PATHS.platform && !init?.method)
        .length,
    fetch: vi.fn<typeof fetch>((input, init = {}) => {
      const json = (status: number, body: unknown) =>
        Promise.resolve(
          new Response(body === undefined ? null : JSON.stringify(body), {
            status,
            headers: { 'content-type': 'application/json' },
          }),
        );
      if (input === DEMO_PATHS.platformFaults && init.method === 'POST') {
        server.posts.push(JSON.parse(typeof init.body === 'string' ? init.body : 'null'));
        return json(204, undefined);
      }
      if (input === DEMO_PATHS.platform) return json(server.answer.status, server.answer.body);
      return json(404, { error: { code: 'not_found', message: 'No such endpoint.' } });
    }),
  };
  return server;
}

let server: FakeServer;
let store: SimulatorStore;

function renderSection() {
  const watch = createPlatformWatch(store, createDemoApi(server.fetch));
  render(<PlatformSection store={store} watch={watch} />);
}

/** Lets the fake server's answers and React's updates through, `ms` later. */
async function advance(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The texts of the cells of a table's body row (0: the first under the header). */
function cellTexts(table: HTMLElement, row: number): (string | null)[] {
  const rows = within(table).getAllByRole('row').slice(1);
  return within(rows[row] ?? table)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
}

function disclosure() {
  return screen.getByRole('button', { name: 'Platform (stand-in)' });
}

async function expand() {
  fireEvent.click(disclosure());
  await advance();
}

beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
  server = fakeServer();
  store = createSimulatorStore(sessionStorage);
  store.update({ open: true, users: [USER] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the Platform section', () => {
  it('is collapsed at first, reads nothing then, and remembers being expanded', async () => {
    renderSection();
    expect(disclosure().getAttribute('aria-expanded')).toBe('false');
    await advance(3 * PLATFORM_REFRESH_MS);
    expect(server.reads()).toBe(0);
    await expand();
    expect(disclosure().getAttribute('aria-expanded')).toBe('true');
    expect(server.reads()).toBe(1);
    expect(createSimulatorStore(sessionStorage).get().settings.showPlatform).toBe(true);
  });

  it('lists the balances, the last debits and the deliveries received (whose events)', async () => {
    renderSection();
    await expand();
    expect(screen.getByText('谷子收藏家: 1300 points')).toBeTruthy();
    expect(screen.getByText('Vb7n2QwEr5Ty8Ui0: 40 points')).toBeTruthy();

    const debits = screen.getByRole('table', { name: 'Last debits' });
    expect(cellTexts(debits, 0)).toEqual([
      shortKey(KEY),
      'Charged 200',
      '1300',
      timeOf('2026-11-26T23:00:05.000Z'),
    ]);
    expect(shortKey(KEY)).toBe('0f8e1c52…');
    expect(within(debits).getByRole('cell', { name: shortKey(KEY) }).title).toBe(KEY);
    expect(cellTexts(debits, 1)[1]).toBe('Refused 150: too few points');

    const deliveries = screen.getByRole('table', { name: 'Deliveries received' });
    expect(cellTexts(deliveries, 0)).toEqual([
      'account.deletion_requested (谷子收藏家), membership.changed (谷子收藏家)',
      '3',
      timeOf('2026-11-26T23:01:00.000Z'),
    ]);
    expect(timeOf('2026-11-26T23:01:00.000Z')).toMatch(/^\d\d:01:00$/);
  });

  it('reads again every 2 s while the panel is open, and never while it is closed', async () => {
    renderSection();
    await expand();
    await advance(2 * PLATFORM_REFRESH_MS);
    expect(server.reads()).toBe(3);
    act(() => {
      store.update({ open: false });
    });
    await advance(5 * PLATFORM_REFRESH_MS);
    expect(server.reads()).toBe(3);
    act(() => {
      store.update({ open: true });
    });
    await advance();
    expect(server.reads()).toBe(4);
    // Collapsing the section stops the reads too.
    fireEvent.click(disclosure());
    await advance(5 * PLATFORM_REFRESH_MS);
    expect(server.reads()).toBe(4);
  });

  it('shows a new debit on the next read', async () => {
    renderSection();
    await expand();
    const ledger = PLATFORM.ledger;
    if (!ledger) throw new Error('the fixture has a ledger');
    server.answer = {
      status: 200,
      body: {
        ...PLATFORM,
        ledger: {
          ...ledger,
          debits: [{ ...ledger.debits[0], key: 'ab12cd34-new', balance: 1100 }, ...ledger.debits],
        },
      },
    };
    await advance(PLATFORM_REFRESH_MS);
    expect(screen.getByRole('cell', { name: 'ab12cd34…' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '1100' })).toBeTruthy();
  });

  it('makes the next debit lose its answer, says so and shows the stand-in’s setting', async () => {
    renderSection();
    await expand();
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Next debit' });
    expect(select.value).toBe('none');
    const ledger = PLATFORM.ledger;
    if (!ledger) throw new Error('the fixture has a ledger');
    server.answer = {
      status: 200,
      body: { ...PLATFORM, ledger: { ...ledger, nextDebitFault: 'lose_answer' } },
    };
    fireEvent.change(select, { target: { value: 'lose_answer' } });
    await advance();
    expect(server.posts).toEqual([{ debit: 'lose_answer' }]);
    expect(select.value).toBe('lose_answer');
    expect(server.reads()).toBe(2);
    expect(screen.getByText('The next debit loses its answer.')).toBeTruthy();
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Answers as usual',
      'Fails (500, nothing charged)',
      'Hangs (never answers)',
      'Loses its answer (charged, connection cut)',
    ]);
  });

  it('makes the receiver refuse the next N deliveries', async () => {
    renderSection();
    await expand();
    const count = screen.getByRole('spinbutton', {
      name: 'Deliveries the receiver refuses next (503)',
    });
    fireEvent.change(count, { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refuse' }));
    await advance();
    expect(server.posts).toEqual([{ eventsFailNext: 3 }]);
    expect(screen.getByText('The receiver refuses the next 3 deliveries.')).toBeTruthy();
    fireEvent.change(count, { target: { value: '40' } });
    expect((count as HTMLInputElement).value).toBe('10');
  });

  it('says which part the stand-in does not have yet', async () => {
    server.answer = { status: 200, body: { ledger: null, received: null } };
    renderSection();
    await expand();
    expect(screen.getByText('The stand-in has no points ledger yet.')).toBeTruthy();
    expect(screen.getByText('The stand-in has no events receiver yet.')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Next debit' })).toBeNull();
  });

  it('says so when the platform cannot be read, and recovers on a later read', async () => {
    server.answer = {
      status: 502,
      body: { error: { code: 'platform_unavailable', message: 'The platform did not answer.' } },
    };
    renderSection();
    await expand();
    expect(screen.getByText(/The platform did not answer\./)).toBeTruthy();
    server.answer = { status: 200, body: PLATFORM };
    await advance(PLATFORM_REFRESH_MS);
    expect(screen.queryByText(/The platform did not answer\./)).toBeNull();
    expect(screen.getByRole('table', { name: 'Last debits' })).toBeTruthy();
  });
});
