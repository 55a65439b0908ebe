// When a detail from the live cache may stand in for a read. The cache keys
// each entry by the list item it was read with, but the entry is a file the
// user can edit, and the list's own fields are laid over the detail once it is
// served, which would hide an entry that names another version or object.
// So the detail itself must say it is what the list just showed.

/**
 * Whether a cached detail is the version of the object the list just showed:
 * its own id and updateDate are the list item's (every write moves the
 * updateDate). An entry rcsctl wrote always is; one edited by hand or filed
 * under another id is not, and is then read again, as any cache miss
 * (docs/configuration.md, "A live cache edited by hand").
 */
export function isListedVersion(detail: { updateDate?: unknown }, detailId: unknown, item: { updateDate: unknown }, itemId: string): boolean {
  return detailId === itemId && detail.updateDate === item.updateDate;
}
