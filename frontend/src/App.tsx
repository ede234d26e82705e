import { AdminPage } from './admin/AdminPage';
import type { Language } from './api/types';
import { BookingFlow } from './booking/BookingFlow';
import { useI18n } from './i18n/I18n';
import { ManagePage } from './manage/ManagePage';
import { type Route, useHashRoute } from './ui/useHashRoute';

const languages: { code: Language; label: string }[] = [
  { code: 'sk', label: 'Slovensky' },
  { code: 'en', label: 'English' },
];

export function App() {
  const { t, lang, setLang } = useI18n();
  const route = useHashRoute();
  const links: { route: Route; label: string }[] = [
    { route: 'book', label: t('navBook') },
    { route: 'manage', label: t('navManage') },
    { route: 'admin', label: t('navAdmin') },
  ];

  return (
    <>
      <a className="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        {t('skipToContent')}
      </a>
      <header className="top">
        <a className="brand" href="#/">Slots</a>
        <nav aria-label="Menu">
          <ul>
            {links.map((link) => (
              <li key={link.route}>
                <a href={`#/${link.route === 'book' ? '' : link.route}`} aria-current={route === link.route ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="languages" role="group" aria-label={t('language')}>
          {languages.map((l) => (
            <button key={l.code} type="button" lang={l.code} aria-pressed={lang === l.code} onClick={() => setLang(l.code)}>
              {l.label}
            </button>
          ))}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {route === 'book' && <BookingFlow />}
        {route === 'manage' && <ManagePage />}
        {route === 'admin' && <AdminPage />}
      </main>
    </>
  );
}
