// A seeded random sequence (mulberry32: small, and a run can be repeated with the same seed) for the soaks.

/** `random()` in [0, 1) and `pick(list)`, from `seed`. */
export function seeded(seed) {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, pick: (list) => list[Math.floor(random() * list.length)] };
}
