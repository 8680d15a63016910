/**
 * The versions table as another module's hot-path statement joins it (the download lookup, one round trip), so
 * the versions columns stay named here: alias `v`, and the version number read as `version`.
 */
export const JOINABLE_VERSIONS = {
  table: 'versions v',
  id: 'v.id',
  numberColumn: 'v.version',
} as const;
