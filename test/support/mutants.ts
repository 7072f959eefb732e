/**
 * Deterministic mutants of JSON values, for comparing two checks on many invalid values.
 */

type Json = any;

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/**
 * Deterministic mutants of a value, one change each at every `stride`-th place: a null, a value of
 * another type, a removed field, an unknown field, a repeated list item, a null list item, a
 * malformed quantity, a too large int32.
 */
export function mutants(value: Json, limit = 80): Json[] {
  const places: Array<{ path: Array<string | number>; value: Json }> = [];
  const walk = (v: Json, path: Array<string | number>): void => {
    places.push({ path, value: v });
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, child] of Object.entries(v)) walk(child, [...path, k]);
  };
  walk(value, []);
  const stride = Math.max(1, Math.floor(places.length / limit));
  const out: Json[] = [];
  places.forEach((place, n) => {
    if (n % stride !== 0 || place.path.length === 0) return;
    const variant = n / stride;
    const mutant = copy(value);
    let parent = mutant;
    for (const step of place.path.slice(0, -1)) parent = parent[step];
    const last = place.path[place.path.length - 1];
    const v = place.value;
    switch (variant % 8) {
      case 0: parent[last] = null; break;
      case 1: parent[last] = typeof v === 'string' ? 7 : typeof v === 'object' && v !== null ? 'text' : { a: 1 }; break;
      case 2: if (Array.isArray(parent)) parent.splice(Number(last), 1); else delete parent[last]; break;
      case 3: parent[last] = v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...copy(v), bogusField: true } : { value: copy(v) }; break;
      case 4: if (Array.isArray(v) && v.length > 0) parent[last] = [...v, copy(v[0])]; else if (Array.isArray(parent)) parent.push(copy(v)); break;
      case 5: if (Array.isArray(v)) parent[last] = [...v, null]; else if (Array.isArray(parent)) parent.push(null); else parent[last] = [null]; break;
      case 6: parent[last] = typeof v === 'string' ? '12xyz!' : -1; break;
      default: parent[last] = 2 ** 31; break;
    }
    out.push(mutant);
  });
  return out;
}

