/**
 * Lengths of the text columns that several places must agree on: the entity's column, the DTO that accepts the
 * value (@MaxLength) and the code that trims what it stores (slice). A change here needs a migration with it.
 */
export const MAX_LENGTH = {
  /** E-mail addresses, wherever one is kept (users, licenses, orders, logs). */
  email: 255,
  /** Product names of licenses and orders, and the product a streaming server reports. */
  productName: 150,
  /** The name a streaming server gives itself. */
  deviceName: 150,
  hostname: 255,
  /** Version numbers ("2.1.0"): versions, and what devices and logs report. */
  version: 50,
  /** versionOrder of a 50-character version: numeric parts padded to 10 digits. */
  versionOrder: 250,
  /** License keys: generated SH- keys and keys an admin types. */
  licenseKey: 64,
  /** A streaming server's identity (server_uid). */
  serverUid: 128,
  /** IP addresses, IPv6 included. */
  ip: 64,
  /** User agents in the logs. */
  userAgent: 500,
  /** A session's user agent. */
  sessionUserAgent: 255,
  /** A remote (activation API) log message. */
  remoteLogMessage: 255,
  /** An audit trail message (failures reported to it included). */
  auditMessage: 500,
  firstName: 100,
  lastName: 100,
  company: 150,
  phone: 50,
  country: 100,
  /** Distribution file and version file names. */
  fileName: 200,
  /** A version's secret hash and encryption key. */
  versionSecret: 255,
  /** The license server a synced remote log came from. */
  remoteLogOrigin: 255,
  /** An access log's route template and path. */
  accessRoute: 150,
  accessPath: 500,
  /** Why a payment failed, and the provider's reference of a paid one. */
  paymentFailure: 255,
  paymentReference: 128,
} as const;
