/** Leaving the page for another URL (a store, an app link): one seam the tests replace. */
export const browserLocation = {
  assign(href: string): void {
    window.location.assign(href);
  },
};
