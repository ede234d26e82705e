import { lazy, Suspense } from 'react';
import type { Language } from './api/types';
import { BookingFlow } from './booking/BookingFlow';
import { useI18n } from './i18n/I18n';
import { Notice } from './ui/Notice';
import { ScreenBoundary } from './ui/ScreenBoundary';
import { type RouteName, useHashRoute } from './ui/useHashRoute';

// A citizen's first load is the booking flow only: looking a reservation up, the privacy page and the staff tools are
// fetched when their route is opened, so a phone on the landing page downloads and parses less.
const ManagePage = lazy(() => import('./manage/ManagePage').then((m) => ({ default: m.ManagePage })));
const AdminPage = lazy(() => import('./admin/AdminPage').then((m) => ({ default: m.AdminPage })));
const WaitingListPage = lazy(() => import('./waitlist/WaitingListPage').then((m) => ({ default: m.WaitingListPage })));
const StaffPage = lazy(() => import('./staff/StaffPage').then((m) => ({ default: m.StaffPage })));
const PrivacyPage = lazy(() => import('./privacy/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));

const languages: { code: Language; label: string }[] = [
  { code: 'sk', label: 'Slovensky' },
  { code: 'en', label: 'English' },
];

export function App() {
  const { t, lang, setLang } = useI18n();
  const route = useHashRoute();
  // The staff tools are not advertised to the public: staff open #/admin and #/staff themselves.
  const links: { route: RouteName; label: string }[] = [
    { route: 'book', label: t('navBook') },
    { route: 'manage', label: t('navManage') },
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
                <a href={`#/${link.route === 'book' ? '' : link.route}`} aria-current={route.name === link.route ? 'page' : undefined}>
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
        {/* A new place link (#/place/12, or a finder's #/place/12/2026-11-27/09:30) starts the booking over at that place. */}
        {route.name === 'book' && (
          <BookingFlow key={`${route.placeId ?? ''}/${route.at?.day ?? ''}/${route.at?.time ?? ''}/${route.service ?? ''}`}
            placeId={route.placeId} at={route.at} service={route.service} />
        )}
        {route.name !== 'book' && (
          <ScreenBoundary key={route.name} failed={<Notice kind="error">{t('loadFailed')} <button type="button" className="link" onClick={() => location.reload()}>{t('retry')}</button></Notice>}>
            <Suspense fallback={<p role="status" className="loading">{t('loading')}</p>}>
              {route.name === 'manage' ? <ManagePage key={route.code ?? ''} code={route.code} />
                : route.name === 'waitlist' ? <WaitingListPage key={route.token} token={route.token} />
                  : route.name === 'staff' ? <StaffPage />
                    : route.name === 'privacy' ? <PrivacyPage /> : <AdminPage />}
            </Suspense>
          </ScreenBoundary>
        )}
      </main>
      <footer className="bottom">
        <a href="#/privacy" aria-current={route.name === 'privacy' ? 'page' : undefined}>{t('navPrivacy')}</a>
      </footer>
    </>
  );
}
