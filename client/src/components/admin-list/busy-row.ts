/** The row whose action is under way (its buttons wait): the id sent by the first pending mutation, or null. */
export function busyRowId(...mutations: Array<{ isPending: boolean; variables?: { id: number } }>): number | null {
  return mutations.find((mutation) => mutation.isPending)?.variables?.id ?? null;
}
