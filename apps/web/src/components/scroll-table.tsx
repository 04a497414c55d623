import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone's screen scrolls sideways in its own box. That box is keyboard reachable (a person
 * without a mouse scrolls it with the arrow keys), shows the focus ring, and is a region named after the table
 * (WCAG 2.1.1; axe's scrollable-region-focusable). Native scrolling: Mantine's ScrollArea draws a viewport that
 * cannot be given focus.
 */
export function ScrollTable({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer
      type="native"
      minWidth={minWidth}
      tabIndex={0}
      role="region"
      aria-label={label}
      className="mantine-focus-auto"
      // The containing block of what is positioned inside (a visually hidden header), which would otherwise widen
      // the page from outside the scrolling box.
      style={{ position: 'relative' }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
