import type { Page } from '@playwright/test';

/**
 * The fields on the page whose text does not fit in them (a time shown as "08:00 A"), by label and value. A text
 * field that overflows scrolls (scrollWidth); a time or date field clips its parts without scrolling, so its width is
 * compared with the width it takes at max-content.
 */
export async function clippedFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('main input:not([type=hidden]):not([type=checkbox])')]
      .filter((input) => input.offsetParent !== null)
      .filter((input) => {
        if (!['time', 'date', 'datetime-local'].includes(input.type)) return input.scrollWidth > input.clientWidth + 1;
        const width = input.getBoundingClientRect().width;
        const given = input.style.width;
        input.style.width = 'max-content';
        const natural = input.getBoundingClientRect().width;
        input.style.width = given;
        return natural > width + 1;
      })
      .map((input) => `${input.labels?.[0]?.textContent ?? input.name} = ${input.value}`),
  );
}

/**
 * A wider font for time fields, as some platforms have (this machine's is narrow): a fixed width clips there.
 * `fontSize` (px) also makes their text larger, as a reader's larger text setting does.
 */
export async function withWideTimeFont(page: Page, fontSize?: number): Promise<void> {
  const size = fontSize ? ` font-size: ${String(fontSize)}px !important;` : '';
  await page.addInitScript((rule) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = rule;
      document.head.append(style);
    });
  }, `input[type=time] { font-family: "DejaVu Sans Mono", monospace !important;${size} }`);
}
