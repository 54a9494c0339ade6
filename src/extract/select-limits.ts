// How many `exclude_selectors` one call may give, and how long one selector may be. Apart from select.ts so that the
// tools' schemas can say them without loading css-select, which loads with the first selector checked.
export const MAX_EXCLUDE_SELECTORS = 20;
export const MAX_SELECTOR_LENGTH = 500;
// Compound selectors one chain may join with combinators (`a b > c` is three), counted again inside :is(), :not()
// and :has(). Real selectors use a handful; a long chain is the shape of a selector written to make matching slow.
export const MAX_SELECTOR_STEPS = 16;
