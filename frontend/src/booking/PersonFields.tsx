import type { Person } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';

interface PersonFieldsProps {
  person: Person;
  onChange: (field: keyof Person, value: string) => void;
  onBlur: (field: keyof Person) => void;
  errorOf: (field: keyof Person) => string | undefined;
  /** What the phone is for, where it is not the booking's confirmation. */
  phoneHint?: string;
}

/** Who is coming: the fields a booking and a waiting list ask for, with the same labels and rules. */
export function PersonFields({ person, onChange, onBlur, errorOf, phoneHint }: PersonFieldsProps) {
  const { t } = useI18n();
  return (
    <>
      <Field label={t('name')} name="name" autoComplete="name" value={person.name} onChange={(v) => onChange('name', v)}
        onBlur={() => onBlur('name')} error={errorOf('name')} maxLength={100} required />
      <Field label={t('phone')} name="phone" type="tel" autoComplete="tel" value={person.phone} onChange={(v) => onChange('phone', v)}
        onBlur={() => onBlur('phone')} error={errorOf('phone')} hint={phoneHint ?? t('phoneHint')} required />
      <Field label={t('nationalId')} name="nationalId" autoComplete="off" value={person.nationalId} onChange={(v) => onChange('nationalId', v)}
        onBlur={() => onBlur('nationalId')} error={errorOf('nationalId')} hint={t('nationalIdHint')} required />
    </>
  );
}
