import { useI18n } from '../i18n/I18n';
import type { Loaded } from './useLoad';
import { Notice } from './Notice';

/** Loading text or a failure with a retry button, for any useLoad result. */
export function LoadState({ loaded }: { loaded: Loaded<unknown> }) {
  const { t } = useI18n();
  if (loaded.error) {
    return (
      <Notice kind="error">
        {t('loadFailed')} <button type="button" className="link" onClick={loaded.reload}>{t('retry')}</button>
      </Notice>
    );
  }
  return loaded.loading ? <p role="status" className="loading">{t('loading')}</p> : null;
}
