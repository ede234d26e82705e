import { type FormEvent, useState } from 'react';
import type { Proof } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { validateCode, validateNationalId, validatePhone } from '../booking/validation';
import { Field } from '../ui/Field';

interface LookupFormProps {
  busy: boolean;
  onFind: (code: string, proof: Proof) => void;
  /** The code from the page's link, filled in for the person to check. */
  initialCode?: string;
}

/** Code plus phone or national id; the proof goes to the API in a header, never the URL. */
export function LookupForm({ busy, onFind, initialCode = '' }: LookupFormProps) {
  const { t } = useI18n();
  const [code, setCode] = useState(initialCode);
  const [kind, setKind] = useState<Proof['kind']>('phone');
  const [value, setValue] = useState('');
  const [checked, setChecked] = useState(false);

  const codeError = checked && !validateCode(code) ? t('errCode') : undefined;
  const proofKey = checked ? (kind === 'phone' ? validatePhone(value) : validateNationalId(value)) : undefined;

  const find = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setChecked(true);
    const form = e.currentTarget;
    if (!validateCode(code)) return (form.elements.namedItem('code') as HTMLInputElement).focus();
    if (kind === 'phone' ? validatePhone(value) : validateNationalId(value)) {
      return (form.elements.namedItem('proof') as HTMLInputElement).focus();
    }
    onFind(code.trim().toUpperCase(), { kind, value: value.trim() });
  };

  return (
    <form onSubmit={find} noValidate>
      <Field label={t('code')} name="code" value={code} onChange={setCode} error={codeError}
        autoComplete="off" autoCapitalize="characters" placeholder="XXXXX-XXXXX" required />
      <fieldset className="choice">
        <legend>{t('proofKind')}</legend>
        <label><input type="radio" name="proofKind" checked={kind === 'phone'} onChange={() => setKind('phone')} /> {t('byPhone')}</label>
        <label><input type="radio" name="proofKind" checked={kind === 'nationalId'} onChange={() => setKind('nationalId')} /> {t('byNationalId')}</label>
      </fieldset>
      <Field label={kind === 'phone' ? t('phone') : t('nationalId')} name="proof" type={kind === 'phone' ? 'tel' : 'text'}
        autoComplete={kind === 'phone' ? 'tel' : 'off'} value={value} onChange={setValue} error={proofKey && t(proofKey)} required />
      <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{t('find')}</button>
    </form>
  );
}
