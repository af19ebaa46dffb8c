import { useEffect, useState } from 'react';

/** A message that clears itself after `ms` (the spec's 3 s error banners). */
export function useTimedMessage(ms = 3000): [string, (message: string) => void] {
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(''), ms);
    return () => clearTimeout(timer);
  }, [message, ms]);
  return [message, setMessage];
}
