// The one median of the benchmarks: the middle value of a list of numbers, the mean of the two middle ones when the
// list is even, 0 for an empty list (a case that measured nothing prints 0, not NaN).

/** @param {readonly number[]} values */
export const median = (values) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
