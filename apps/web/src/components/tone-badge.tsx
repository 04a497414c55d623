import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Each tone's ground and text, at 7:1 or better (the same pairs as the appointment statuses): Mantine's own light
 * badges put its darkest shade on its lightest, which falls under 4.5:1 for several colours.
 */
export const TONES = {
  blue: { background: 'var(--mantine-color-blue-0)', text: '#1e3a8a' },
  yellow: { background: 'var(--mantine-color-yellow-0)', text: '#713f12' },
  green: { background: 'var(--mantine-color-green-0)', text: '#14532d' },
  teal: { background: 'var(--mantine-color-teal-0)', text: '#065f46' },
  violet: { background: 'var(--mantine-color-violet-0)', text: '#4c1d95' },
  gray: { background: 'var(--mantine-color-gray-1)', text: '#374151' },
  red: { background: 'var(--mantine-color-red-0)', text: '#7f1d1d' },
  orange: { background: 'var(--mantine-color-orange-0)', text: '#7c2d12' },
} as const;
export type Tone = keyof typeof TONES;

/**
 * A small badge in one of the tones, its text at AA contrast or better on its tinted ground; `strong` fills it with
 * the text colour instead (white text), for what must stand out (a severe allergy, the primary diagnosis). The
 * badge always says in words what its colour says.
 */
export function ToneBadge({
  tone,
  strong = false,
  children,
  ...rest
}: {
  tone: Tone;
  strong?: boolean;
  children: ReactNode;
  'data-testid'?: string;
}) {
  const { background, text } = TONES[tone];
  return (
    <Badge
      variant="light"
      radius="sm"
      style={{
        flexShrink: 0,
        '--badge-bg': strong ? text : background,
        '--badge-color': strong ? '#fff' : text,
        '--badge-bd': `1px solid ${text}`,
      }}
      {...rest}
    >
      {children}
    </Badge>
  );
}
