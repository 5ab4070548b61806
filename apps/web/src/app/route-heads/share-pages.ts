import { shareHead } from '../../features/share/page/share-head';
import type { RouteHead } from '../route-heads';

/** The share pages' previews, robots and app banner (features/share/share-head.ts). */
export const head: RouteHead = shareHead;
