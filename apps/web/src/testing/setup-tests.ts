import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lacks these; Mantine's components ask for them.
// The DOM types say these always exist; in jsdom they do not.
if (typeof (window as Partial<Window>).matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { value: ResizeObserverStub });
}

// Mantine's autosizing textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

// findBy… and waitFor give up after 1 s by default; in CI the unit tests share the two cores with lint, the type
// check and the build (decision 055), and a screen that renders in 100 ms alone was seen taking longer there.
configure({ asyncUtilTimeout: 1_000 * Number(import.meta.env.TEST_SLOW_MACHINE ?? 1) });

afterEach(() => {
  cleanup();
});
