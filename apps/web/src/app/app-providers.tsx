import { StrictMode, type ReactNode } from 'react';
import type { Language } from '@guquan/contract/language';
import { LanguageProvider } from '../lib/i18n/language-context';

/** What wraps the router on both the server and the client. */
export function AppProviders({ language, children }: { language: Language; children: ReactNode }) {
  return (
    <StrictMode>
      <LanguageProvider language={language}>{children}</LanguageProvider>
    </StrictMode>
  );
}
