import { describe, expect, it } from 'vitest';

import { splitAtPhone } from './phone-linked-text.tsx';

describe('splitAtPhone', () => {
  it('cuts the text around each occurrence of the number', () => {
    expect(splitAtPhone('Please call the clinic at (212) 555-0123.', '(212) 555-0123')).toEqual([
      { text: 'Please call the clinic at ', isPhone: false },
      { text: '(212) 555-0123', isPhone: true },
      { text: '.', isPhone: false },
    ]);
    expect(splitAtPhone('(212) 555-0123', '(212) 555-0123')).toEqual([{ text: '(212) 555-0123', isPhone: true }]);
  });

  it('leaves a text without the number, or without a number configured, whole', () => {
    expect(splitAtPhone('Please contact the practice.', '(212) 555-0123')).toEqual([
      { text: 'Please contact the practice.', isPhone: false },
    ]);
    expect(splitAtPhone('Please contact the practice.', null)).toEqual([
      { text: 'Please contact the practice.', isPhone: false },
    ]);
  });
});
