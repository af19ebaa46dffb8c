import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { queryClient } from '../../lib/query';

/**
 * Data cache and toasts for the signed-in areas only: the public pages never load them, which
 * keeps their JavaScript small. Toasts show top-centre and close after 4 s (spec section 9).
 */
export function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster position="top-center" duration={4000} closeButton />
    </QueryClientProvider>
  );
}
