import { StrictMode, type ReactNode } from 'react';
import type { Language } from '@guquan/contract/language';
import type { ClientInfo } from '../lib/client/client-info';
import { ClientInfoProvider } from '../lib/client/client-info-context';
import { LanguageProvider } from '../lib/i18n/language-context';

/** What wraps the router on both the server and the client. */
export function AppProviders({
  language,
  client,
  children,
}: {
  language: Language;
  client: ClientInfo;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <LanguageProvider language={language}>
        <ClientInfoProvider client={client}>{children}</ClientInfoProvider>
      </LanguageProvider>
    </StrictMode>
  );
}
