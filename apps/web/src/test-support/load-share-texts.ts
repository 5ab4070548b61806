import { LANGUAGES } from '@guquan/contract/language';
import { loadShareTexts } from '../features/share/share-texts';

// The unit tests render share components in either language: as a share route's `prepare` does
// before a page renders, both languages' texts are loaded first (vite.config.ts, setupFiles).
await Promise.all(LANGUAGES.map(loadShareTexts));
