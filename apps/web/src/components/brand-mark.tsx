/** The practice's mark: a rounded square with a cross, in the primary colour (or white on a dark ground). */
export function BrandMark({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden focusable={false}>
      <rect width="64" height="64" rx="14" fill={inverted ? '#fff' : 'var(--mantine-color-clinical-8, #1a6978)'} />
      <path
        d="M28 14h8v14h14v8H36v14h-8V36H14v-8h14z"
        fill={inverted ? 'var(--mantine-color-clinical-8, #1a6978)' : '#fff'}
      />
    </svg>
  );
}
