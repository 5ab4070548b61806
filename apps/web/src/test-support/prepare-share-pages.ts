import { LANGUAGES } from '@guquan/contract/language';
import { loadDrawnLater } from '../features/share/share-page/drawn-later';
import { loadShareTexts } from '../features/share/share-texts';

// The unit tests render share pages as the server does (a share route's `prepare`): the texts of
// both languages are loaded first, and the skeleton's code as a started page has it preloaded
// (vite.config.ts, setupFiles).
await Promise.all([...LANGUAGES.map(loadShareTexts), loadDrawnLater()]);
