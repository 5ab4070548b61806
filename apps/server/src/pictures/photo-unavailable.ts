/**
 * A photo the picture shows has arrived, but its original is not on this server and cannot be
 * fetched again now (its host down): the picture is not drawn without it, or the lesser picture
 * would be kept under the version of the whole one. The caller answers 503 and asks to retry.
 */
export class PhotoUnavailable extends Error {
  constructor() {
    super('A photo of this picture cannot be had now');
    this.name = 'PhotoUnavailable';
  }
}
