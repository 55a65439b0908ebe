// Which postback data is the service's: the one rule, used by the auto-reply
// kind (comparison), export (what a manifest writes), doctor (what a read shows)
// and the emulator (what it fills in). The service fills every suggestion sent
// with empty data as `postbackId=<id>;;` on read (docs/decisions.md, "Auto-replies");
// anything else is data a user set, which the agency receives when the user taps.

/** The service's fill-in, `postbackId=<id>;;`; the manifest schema refuses user data of this form. */
export const SERVICE_POSTBACK = /^postbackId=[^;]*;;$/;

/** The fill-in the service (and the emulator) writes for an id. */
export function servicePostback(id: string): string {
  return `postbackId=${id};;`;
}

/** True for postback data no user set: absent, empty, or the service's fill-in. */
export function isServicePostback(data: string | undefined): boolean {
  return data === undefined || data === '' || SERVICE_POSTBACK.test(data);
}

/** The postback a user set, or undefined when there is none of theirs (absent, empty, the service's fill-in). */
export function userPostback(p: { data?: string } | undefined): { data: string } | undefined {
  const data = p?.data;
  return data === undefined || isServicePostback(data) ? undefined : { data };
}
