import { createContext, useContext, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, type Language } from '@guquan/contract/language';

const LanguageContext = createContext<Language>(DEFAULT_LANGUAGE);

/** The page's language, decided once by the server for this page load and kept by the app. */
export function LanguageProvider({
  language,
  children,
}: {
  language: Language;
  children: ReactNode;
}) {
  return <LanguageContext value={language}>{children}</LanguageContext>;
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}
