import { describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from './route-table';
import { hasLegalDocument } from '../features/legal/load-legal-document';
import { versionsOf } from './legal-versions';

describe('versionsOf', () => {
  it('lists a document’s versions newest first, at their routes', () => {
    expect(versionsOf('user')).toEqual([
      { version: '2025-10-15', path: '/agreement/user/UserAgreement20251015' },
      { version: '2023-06-01', path: '/agreement/user/UserAgreement' },
    ]);
    expect(versionsOf('privacy').map((version) => version.path)).toEqual([
      '/agreement/yiSi/YiSiAgreement20261128',
      '/agreement/yiSi/YiSiAgreement20261127',
      '/agreement/yiSi/YiSiAgreement20261126',
      '/agreement/yiSi/YiSiAgreement20261124',
      '/agreement/yiSi/YiSiAgreement20251015',
      '/agreement/yiSi/YiSiAgreement',
    ]);
  });

  it('lists a version shown at two routes once', () => {
    expect(versionsOf('exposure')).toEqual([
      { version: '2025-10-15', path: '/agreement/ExposureAgreement' },
    ]);
  });

  it('finds a document for every legal route', () => {
    const legal = (routeTable as readonly RouteEntry[]).flatMap((entry) =>
      entry.legal ? [entry.legal] : [],
    );
    expect(legal).toHaveLength(14);
    for (const ref of legal)
      expect(hasLegalDocument(ref), `${ref.document} ${ref.version}`).toBe(true);
  });
});
