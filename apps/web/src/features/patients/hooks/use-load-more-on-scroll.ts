import { useEffect, useRef, useState } from 'react';

/**
 * Calls `onVisible` when the returned element (a sentinel below the last card) comes within `rootMargin` of
 * the viewport, and again each time it comes back while `enabled`. Browsers without IntersectionObserver
 * (and tests in jsdom) simply rely on the "Load more" button.
 */
export function useLoadMoreOnScroll(onVisible: () => void, enabled: boolean, rootMargin = '600px') {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  }, [onVisible]);

  useEffect(() => {
    if (!element || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [element, enabled, rootMargin]);

  return setElement;
}
