/**
 * Seeded randomness for the sandbox dataset: mulberry32, so that the same seed always yields
 * byte-identical responses (Math.random is never used).
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A derived generator, so that generating one part lazily does not disturb the others. */
  static derive(seed: number, ...parts: (string | number)[]): Prng {
    return new Prng(stableHash(`${seed}\u0000${parts.join('\u0000')}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Approximately normal (sum of uniforms), mean 0, sd 1. */
  normal(): number {
    return this.next() + this.next() + this.next() + this.next() + this.next() + this.next() - 3;
  }

  /** A hex string of `length` characters (API keys). */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

/** FNV-1a of text: seeds of derived generators, synthetic ResultId/StartId values. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
