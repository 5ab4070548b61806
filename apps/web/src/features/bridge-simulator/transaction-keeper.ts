import { z } from 'zod';
import { signedTransactionSchema } from '@guquan/contract/bridge';

/**
 * The transactions the simulated App Store holds for this browser, kept in localStorage as the
 * device keeps them across launches: unfinished ones until the page calls storeKitFinish (so a
 * page that lost the network resends them), and all of them for Restore Purchases.
 */
export const KEPT_TRANSACTIONS_KEY = 'guquan.bridgeSimulator.transactions';
/** Enough for any test; the oldest finished ones go first. */
const MAX_KEPT = 50;

const keptTransactionSchema = z.object({
  transactionId: z.string(),
  productId: z.string(),
  signedTransaction: signedTransactionSchema,
  finished: z.boolean(),
});
export type KeptTransaction = z.infer<typeof keptTransactionSchema>;

export interface TransactionKeeper {
  all(): KeptTransaction[];
  unfinished(): KeptTransaction[];
  add(transaction: Omit<KeptTransaction, 'finished'>): void;
  finish(transactionId: string): void;
  clear(): void;
}

export function createTransactionKeeper(storage: Storage): TransactionKeeper {
  const read = (): KeptTransaction[] => {
    try {
      const parsed = z
        .array(keptTransactionSchema)
        .safeParse(JSON.parse(storage.getItem(KEPT_TRANSACTIONS_KEY) ?? '[]'));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  };
  const write = (transactions: KeptTransaction[]) => {
    storage.setItem(KEPT_TRANSACTIONS_KEY, JSON.stringify(transactions));
  };

  return {
    all: read,
    unfinished: () => read().filter((transaction) => !transaction.finished),
    add(transaction) {
      // The App Store hands back the current transaction for a plan change that waits for the
      // renewal: one entry per transaction id, as the device keeps them.
      const others = read().filter((item) => item.transactionId !== transaction.transactionId);
      const kept = [...others, { ...transaction, finished: false }];
      while (kept.length > MAX_KEPT) {
        const oldestFinished = kept.findIndex((item) => item.finished);
        kept.splice(oldestFinished === -1 ? 0 : oldestFinished, 1);
      }
      write(kept);
    },
    finish(transactionId) {
      write(
        read().map((item) =>
          item.transactionId === transactionId ? { ...item, finished: true } : item,
        ),
      );
    },
    clear() {
      storage.removeItem(KEPT_TRANSACTIONS_KEY);
    },
  };
}
