// V8 keeps an array's elements in one of a few kinds (small integers, doubles, anything) and changes the kind as
// values of another arrive; optimized code that has seen arrays of one kind is thrown away at the other. An array
// literal with nothing in it starts as one of small integers, so a list of nodes made empty on every page changed
// kind at its first node, on every page.

const AN_OBJECT = {};

/**
 * An empty array that V8 already holds as one of objects: for lists of nodes that hot code fills, page after page
 * (tree-parser.ts's children and named elements, main-content.ts's candidates). Measured by the optimized functions
 * thrown away in a worker's first pass over the news set (`node --trace-deopt`), not by a test: the arrays behave as
 * any other.
 */
export function emptyObjectArray<T extends object>(): T[] {
  const array = [AN_OBJECT as T];
  array.pop();
  return array;
}
