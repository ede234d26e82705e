import { useCallback, useEffect, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { AdminService } from '../api/types';

/**
 * The catalogue's services, active or not, read once for every card that names one (services, a
 * place's services, generation, statistics) and again after a card changes it. A failed read leaves
 * the list as it was: the cards still work with the default service.
 */
export function useCatalogue(admin: AdminApi): { services: AdminService[]; error: unknown; reload: () => Promise<void> } {
  const [services, setServices] = useState<AdminService[]>([]);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      setServices(await admin.services());
      setError(null);
    } catch (failure) {
      setError(failure);
    }
  }, [admin]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { services, error, reload };
}
