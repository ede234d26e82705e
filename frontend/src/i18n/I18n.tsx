import { createContext, type ReactNode, useCallback, useContext, useLayoutEffect, useMemo, useState } from 'react';
import type { Language } from '../api/types';
import { en, sk, type Translate, translator } from './messages';

export type { Translate };

interface I18n {
  lang: Language;
  setLang: (lang: Language) => void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);
// The chosen language is a preference, not personal data, so it may outlive the tab.
const storageKey = 'slots.language';

function initialLanguage(): Language {
  return localStorage.getItem(storageKey) === 'en' ? 'en' : 'sk';
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Language>(initialLanguage);

  // Set in the same commit as the text, not after the next paint: a screen reader reading the new
  // text must already hear it in its language.
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
    document.title = (lang === 'en' ? en : sk).appName;
  }, [lang]);

  const setLang = useCallback((next: Language) => {
    localStorage.setItem(storageKey, next);
    setLangState(next);
  }, []);

  const value = useMemo<I18n>(() => ({ lang, setLang, t: translator(lang) }), [lang, setLang]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
