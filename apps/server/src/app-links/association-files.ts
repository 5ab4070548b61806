import { APP_LINK_SEGMENTS } from '@guquan/contract/app-link-paths';
import type { AppLinksConfig } from '../config/app-links-config.ts';

/**
 * The two files that let the phones trust the link domain (docs/decisions/0017-app-links-and-handoffs.md). Both are built once from
 * the settings and served as they are: `application/json`, never a redirect, far under Apple's
 * 128 kB.
 */

/**
 * What each component matches: the app opens `/<kind>/<id>` (an item) and `/user/<id>`,
 * `/tag/<name>` (places), and nothing else.
 */
interface Component {
  '/': string;
  exclude?: true;
  comment: string;
}

/**
 * apple-app-site-association (Apple TN3155): the app's id and the paths it opens. The first
 * component that matches decides, so the exclusions come first: a kind without an id, or with
 * anything after it, stays on the web; `/` (the website's download section) and every other path
 * are claimed by no component at all.
 */
export function appleAppSiteAssociation(config: AppLinksConfig): object {
  const segments = APP_LINK_SEGMENTS;
  const components: Component[] = [
    ...segments.flatMap((segment): Component[] => [
      { '/': `/${segment}/`, exclude: true, comment: `no ${segment} id: the web` },
      { '/': `/${segment}/*/*`, exclude: true, comment: `not a ${segment} path: the web` },
    ]),
    ...segments.map((segment): Component => ({ '/': `/${segment}/*`, comment: `a ${segment}` })),
  ];
  return {
    applinks: {
      details: [{ appIDs: [`${config.appleTeamId}.${config.appleBundleId}`], components }],
    },
  };
}

/** assetlinks.json (Android App Links): the package and its signing certificates' fingerprints. */
export function assetLinks(config: AppLinksConfig): object[] {
  return [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: config.androidPackage,
        sha256_cert_fingerprints: config.androidCertFingerprints,
      },
    },
  ];
}
