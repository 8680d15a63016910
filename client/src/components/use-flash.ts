import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself after `ms`, or after the `ms` given with it (the spec's banners); without either it stays. */
export function useFlash(ms?: number): [string | null, (message: string | null, ms?: number) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback(
    (next: string | null, forMs = ms) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next && forMs) timer.current = setTimeout(() => setMessage(null), forMs);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
