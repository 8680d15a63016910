/** What other modules may know of the devices module's vocabulary, without reaching into its entities. */

export const DEVICE_STATUSES = ['active', 'inactive', 'failed'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
