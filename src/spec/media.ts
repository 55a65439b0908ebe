// How an auto-reply body names an uploaded image. The client sends the bare
// fileId (the service reference); the public OpenAPI document also shows the
// form `maapfile://<fileId>` in answers. Reading back, both name the same file.

/** Body fields that hold an auto-reply file id (`media`, `subMedia2`). */
export const MEDIA_FIELD = /^(media|subMedia)\d*$/;

/** The scheme prefix the public document shows on media values in answers. */
export const MAAPFILE_PREFIX = 'maapfile://';

/** The file id a media body value names: `maapfile://ARF1` and `ARF1` are both `ARF1`. */
export function mediaFileId(value: string): string {
  return value.startsWith(MAAPFILE_PREFIX) ? value.slice(MAAPFILE_PREFIX.length) : value;
}

/** Which form a media value is written in, as `rcsctl doctor` reports it. */
export function mediaForm(value: string): 'fileId' | 'maapfile' {
  return value.startsWith(MAAPFILE_PREFIX) ? 'maapfile' : 'fileId';
}
