// Strings of the progressive charts (a chart drawn from a first slice of the work, refining to the
// full result); merged into the English catalogue web/src/i18n/messages.en.ts.
export const speedEn = {
  'common.refining': 'refining…',
  'common.refiningTitle': 'A first estimate from part of the work (fewer heads, samples or queries); the chart updates when the full result is in, and the readouts show only full results.',
} as const;
