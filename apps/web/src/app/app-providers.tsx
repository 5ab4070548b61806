import { StrictMode, type ReactNode } from 'react';
import type { Language } from '@guquan/contract/language';
import { LinkOriginProvider } from '../lib/app-links/link-origin';
import type { ClientInfo } from '@guquan/contract/client-info';
import { ClientInfoProvider } from '../lib/client/client-info-context';
import { LanguageProvider } from '../lib/i18n/language-context';

/** What wraps the router on both the server and the client. */
export function AppProviders({
  language,
  client,
  linkOrigin,
  children,
}: {
  language: Language;
  client: ClientInfo;
  /** The app's link domain, from the server (entry-server) or the page it wrote (entry-client). */
  linkOrigin: string;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <LanguageProvider language={language}>
        <ClientInfoProvider client={client}>
          <LinkOriginProvider linkOrigin={linkOrigin}>{children}</LinkOriginProvider>
        </ClientInfoProvider>
      </LanguageProvider>
    </StrictMode>
  );
}
