/** "Did you mean" for names and enum values: fold case, accents and separators, then edit distance. */

function fold(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
}

function editDistance(a: string, b: string): number {
  const row: number[] = [];
  for (let j = 0; j <= b.length; j++) row.push(j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] as number;
      row[j] = Math.min(saved + 1, (row[j - 1] as number) + 1, previous + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length] as number;
}

/** The closest of `known` to `given`, if it is a near miss (1 edit for short names, 2 otherwise). */
export function suggest(given: string, known: readonly string[]): string | undefined {
  const folded = fold(given);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const candidate = fold(name);
    const distance = candidate === folded ? 0 : editDistance(folded, candidate);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  const allowed = folded.length <= 4 ? 1 : 2;
  return bestDistance <= allowed ? best : undefined;
}
