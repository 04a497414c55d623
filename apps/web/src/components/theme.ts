import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * A calm clinical teal. Shade 8 is the primary shade: white text on it is 6.3:1 and it is 5.8:1 as link text on
 * the page background, so buttons, links and filled badges pass WCAG AA (the default blue-6 theme failed axe).
 */
const clinical: MantineColorsTuple = [
  '#e6f3f5',
  '#cfe6ea',
  '#a2cdd5',
  '#72b3c0',
  '#4c9eae',
  '#3590a2',
  '#27879a',
  '#217a8b',
  '#1a6978',
  '#0f4f5c',
];

const BUTTON_PADDING_BLOCK = 'calc(0.375rem * var(--mantine-scale))';
const BUTTON_BORDER = 'calc(0.0625rem * var(--mantine-scale))';

export const theme = createTheme({
  primaryColor: 'clinical',
  primaryShade: { light: 8, dark: 6 },
  colors: { clinical },
  focusRing: 'auto',
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  headings: {
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
    fontWeight: '650',
  },
  components: {
    Anchor: { defaultProps: { underline: 'hover' } },
    // A label too long for its button (Spanish is often a third longer than English, on a 390 px screen) goes
    // onto a second line instead of being cut off; a label that fits keeps the button's usual height.
    Button: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: BUTTON_PADDING_BLOCK },
        inner: { minHeight: `calc(var(--button-height) - 2 * ${BUTTON_PADDING_BLOCK} - 2 * ${BUTTON_BORDER})` },
        label: { whiteSpace: 'normal', textAlign: 'center' },
      },
    },
    Card: { defaultProps: { withBorder: true, radius: 'md', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'md' } },
  },
});

/**
 * Colours the default theme leaves below AA contrast on white: dimmed text (gray-6 is 3.3:1), error text
 * (red-6 is 3.3:1) and placeholders; and the text of the light variant (an alert's title, a light badge) in green
 * and red, whose defaults (green-6, red-6) are below 3.5:1 on their own tinted background.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    // 7.2:1 and 4.8:1 on the light variant's tint.
    '--mantine-color-green-light-color': '#1b5e20',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
