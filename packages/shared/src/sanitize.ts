/** Script blocks, `javascript:` URLs and inline event handlers: what no stored text may carry. */
const SCRIPT_BLOCK = /<\s*script\b[^>]*>[\s\S]*?<\s*\/\s*script\s*>/gi;
const JAVASCRIPT_SCHEME = /javascript\s*:/gi;
const EVENT_HANDLER_IN_TAG = /(<[^>]*?)\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi;
const ANY_TAG = /<\/?[a-z][^>]*>/gi;

/** True when the text holds markup or script that a person's name or clinical note never needs. */
export function hasScriptPattern(value: string): boolean {
  return (
    /<\s*script\b/i.test(value) ||
    /javascript\s*:/i.test(value) ||
    /<[^>]*\son[a-z]+\s*=/i.test(value) ||
    /<\s*\/?\s*(iframe|object|embed|svg|img)\b/i.test(value)
  );
}

/**
 * What every stored string goes through: script blocks, `javascript:` and inline event-handler attributes
 * removed, then trimmed.
 */
export function sanitizeText(value: string): string {
  let text = value.replace(SCRIPT_BLOCK, '');
  // Removing one handler can reveal another in the same tag; repeat until nothing changes.
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(EVENT_HANDLER_IN_TAG, '$1');
  }
  return text.replace(JAVASCRIPT_SCHEME, '').trim();
}

/** Free text additionally loses every tag and has its runs of spaces folded (line breaks are kept). */
export function sanitizeFreeText(value: string): string {
  return sanitizeText(value)
    .replace(ANY_TAG, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}
