import { getMetadataStorage } from 'class-validator';

type Lookup = (target: unknown, schema: unknown, always: boolean, strictGroups: boolean, groups?: string[]) => readonly object[];
type Grouping = (metadatas: readonly object[]) => Record<string, object[]>;
/** class-validator's storage is one for the process: its methods are wrapped once. */
let installed = false;

/**
 * class-validator looks a class's rules up again on every validation: it filters them, walks every class with rules
 * (an `instanceof` each, for inherited ones) and groups them by property, about 0.15 ms of a list request's CPU on
 * the benchmark machine. Rules are declared as classes are defined, so each answer is kept per class and options,
 * and all are dropped when a rule is added (a class defined later). Both answers are only read by the library.
 */
export function keepValidationRuleLookups(): void {
  const storage = getMetadataStorage() as unknown as {
    getTargetValidationMetadatas: Lookup;
    groupByPropertyName: Grouping;
    addValidationMetadata: (metadata: unknown) => void;
    addConstraintMetadata: (metadata: unknown) => void;
  };
  if (installed) return;
  installed = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let lookups = new Map<unknown, Map<string, readonly object[]>>();
  let groupings = new WeakMap<readonly object[], Record<string, object[]>>();
  for (const method of ['addValidationMetadata', 'addConstraintMetadata'] as const) {
    const add = storage[method].bind(storage);
    storage[method] = (metadata) => {
      lookups = new Map();
      groupings = new WeakMap();
      add(metadata);
    };
  }
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = JSON.stringify([typeof schema === 'string' ? schema : null, always, strictGroups, groups ?? null]);
    let byOptions = lookups.get(target);
    if (!byOptions) lookups.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadatas) => {
    let grouped = groupings.get(metadatas);
    if (!grouped) groupings.set(metadatas, (grouped = group(metadatas)));
    return grouped;
  };
}
