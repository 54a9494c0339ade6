// How many `exclude_selectors` one call may give, and how long one selector may be. Apart from select.ts so that the
// tools' schemas can say them without loading css-select, which loads with the first selector checked.
export const MAX_EXCLUDE_SELECTORS = 20;
export const MAX_SELECTOR_LENGTH = 500;
