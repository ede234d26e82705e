import { api } from '../api/slotsApi';
import type { DoseInterval } from '../api/types';
import { useLoad } from '../ui/useLoad';
import { doseIntervalOf } from './pairs';

/**
 * The interval to the second dose of the service (its code), from the catalogue (GET /api/services,
 * which the browser keeps 30 s); undefined for one appointment, no code, or while (or where) the
 * catalogue cannot be read: the API books and shows the second dose all the same.
 */
export function useDoseInterval(code: string | undefined): DoseInterval | undefined {
  const catalogue = useLoad(async () => (code === undefined ? [] : api.services()), [code]);
  return doseIntervalOf(catalogue.data ?? [], code);
}
