import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { toast, Toaster } from 'sonner';
import { ActionEffectsContext, type ActionEffects } from '../../lib/action';
import { queryClient } from '../../lib/query';

/**
 * Data cache and toasts for the signed-in areas only: the public pages never load them, which
 * keeps their JavaScript small. Toasts show top-centre and close after 4 s (spec section 9). After
 * any change made through useAction, every query on screen is refetched: a transfer changes the
 * balances, the history and the dashboard at once, and no feature has to know the others' keys.
 */
export function SignedInProviders({ children }: { children: ReactNode }) {
  const effects = useMemo<ActionEffects>(
    () => ({
      toast: (tone, message) => void toast[tone](message),
      refresh: () => queryClient.invalidateQueries(),
    }),
    [],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ActionEffectsContext.Provider value={effects}>
        {children}
        <Toaster position="top-center" duration={4000} closeButton />
      </ActionEffectsContext.Provider>
    </QueryClientProvider>
  );
}
